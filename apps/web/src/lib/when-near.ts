/**
 * Calls `onNear` once `element` comes within `margin` of the window (at once where the browser cannot tell); the
 * answer stops watching. For what is drawn or loaded only when it is about to be seen.
 */
export function whenNear(element: Element, onNear: () => void, margin = '0px'): () => void {
  if (typeof IntersectionObserver === 'undefined') {
    onNear();
    return () => {};
  }
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      onNear();
    },
    { rootMargin: margin },
  );
  observer.observe(element);
  return () => observer.disconnect();
}
