import { useEffect, useState } from 'react';
/** How long a landing keeps its section at the top while the sections above it load their data. */
export const LANDING_HOLD_MS = 4000;

/** What the member does to move the page themselves: the landing lets go of it at once. */
const OWN_MOVES = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

/**
 * Opens the account page at a section (a link such as /payment-history): the section is scrolled to the top at once
 * and held there while the sections above it grow with their data, until the member scrolls or clicks themselves or
 * the hold ends. Answers whether the landing still holds, so the drawer can mark the section meanwhile (a short
 * section near the end of the page may never reach the scroll spy's line).
 */
export function useSectionLanding(section: string | null): boolean {
  // The section whose landing has let go (the member moved, or the hold ended).
  const [released, setReleased] = useState<string | null>(null);
  useEffect(() => {
    if (!section) return;
    const align = () => document.getElementById(section)?.scrollIntoView({ block: 'start' });
    align();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(align);
    const page = document.getElementById(section)?.parentElement;
    if (page) observer?.observe(page);
    const release = () => {
      observer?.disconnect();
      for (const move of OWN_MOVES) window.removeEventListener(move, release);
      window.clearTimeout(timer);
      setReleased(section);
    };
    for (const move of OWN_MOVES) window.addEventListener(move, release, { passive: true });
    const timer = window.setTimeout(release, LANDING_HOLD_MS);
    return release;
  }, [section]);
  return section !== null && released !== section;
}
