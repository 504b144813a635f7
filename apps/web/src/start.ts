// The first script of a page that carries its static first paint (features/account/first-paint.ts): the page has
// painted its frame and headings from the document alone, and the app's scripts are fetched only after that paint, so
// they do not share the first moments of a slow connection with the stylesheet and fonts that paint needs. The server
// lists them in the page (`ums-scripts`); nothing here is imported by the app, so this file stays a few hundred bytes.

import { SCRIPTS_ELEMENT_ID, type PageScripts } from '@ums/contracts/first-paint';

/**
 * lib/first-paint.ts's FIRST_PAINT_ID, written out: importing a module the app imports too would make the build put
 * it in a chunk of its own, one more request before this script can run. start.test.ts holds the two equal.
 */
export const FIRST_PAINT_ELEMENT = 'ums-first-paint';

function start(scripts: PageScripts) {
  for (const href of scripts.preload) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.append(link);
  }
  // A page whose app cannot load (the connection dropped, a release replaced the file) must not go on looking like
  // a working page under the first paint: without it the page is plainly blank, as any page is whose script fails.
  import(/* @vite-ignore */ scripts.entry).catch((error: unknown) => {
    console.error(error);
    document.getElementById(FIRST_PAINT_ELEMENT)?.remove();
  });
}

const listed = document.getElementById(SCRIPTS_ELEMENT_ID)?.textContent;
if (listed) {
  const scripts = JSON.parse(listed) as PageScripts;
  // After the frame that paints the page (a timer set in the frame's callback runs once it is drawn); a tab opened
  // in the background draws no frame until it is shown, so it starts at once.
  if (document.visibilityState === 'visible') requestAnimationFrame(() => setTimeout(() => start(scripts), 0));
  else start(scripts);
}
