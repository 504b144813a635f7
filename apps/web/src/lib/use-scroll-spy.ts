import { useEffect, useState } from 'react';

/** SPEC section 9: a section counts as reached once its top is within 100px of the viewport top. */
export const SCROLL_SPY_OFFSET = 100;

/** The id of the section being read: the last one whose top has passed the offset; the first by default. */
export function activeSection(
  ids: readonly string[],
  topOf: (id: string) => number | null,
  offset = SCROLL_SPY_OFFSET,
) {
  let active = ids[0] ?? '';
  for (const id of ids) {
    const top = topOf(id);
    if (top !== null && top - offset <= 0) active = id;
  }
  return active;
}

export function useScrollSpy(ids: readonly string[], offset = SCROLL_SPY_OFFSET): string {
  const [active, setActive] = useState(ids[0] ?? '');
  const key = ids.join('|');
  useEffect(() => {
    const list = key.split('|');
    const update = () => {
      const atBottom = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2;
      // A short last section never reaches the top: at the bottom of the page it is the one being read.
      if (atBottom && window.scrollY > 0) return setActive(list[list.length - 1] ?? '');
      setActive(activeSection(list, (id) => document.getElementById(id)?.getBoundingClientRect().top ?? null, offset));
    };
    // The first reading waits until the page has been painted: measuring at mount would make the browser lay the
    // whole page out inside React's task (a long task on a phone), when it is about to do so anyway.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => (timer = setTimeout(update)));
    window.addEventListener('scroll', update, { passive: true });
    window.addEventListener('resize', update);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
      window.removeEventListener('scroll', update);
      window.removeEventListener('resize', update);
    };
  }, [key, offset]);
  return active;
}
