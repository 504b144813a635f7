/**
 * The element holding the page's static first paint (features/account/first-paint.ts). Here, not in the contracts:
 * the build's configuration imports it, and Node loads the contracts' TypeScript only through Vite.
 */
export const FIRST_PAINT_ID = 'ums-first-paint';

/** Marks a screen that may stand behind the first paint: the app's "Loading..." while it reads the session. */
export const HOLDS_FIRST_PAINT = 'data-holds-first-paint';

/**
 * Removes the static first paint as soon as the app draws a screen of its own that is not a loading screen, in the
 * same frame (a mutation observer runs before the browser paints). Until then the first paint covers the app's
 * loading screen.
 */
export function removeFirstPaintWhenDrawn(root: HTMLElement, page: Document = document): void {
  const firstPaint = page.getElementById(FIRST_PAINT_ID);
  if (!firstPaint) return;
  const drawn = () => root.childElementCount > 0 && !root.querySelector(`[${HOLDS_FIRST_PAINT}]`);
  const observer = new MutationObserver(() => {
    if (!drawn()) return;
    observer.disconnect();
    firstPaint.remove();
  });
  observer.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: [HOLDS_FIRST_PAINT] });
}
