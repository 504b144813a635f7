import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// findBy and waitFor wait up to 3 s rather than 1 s: the answers come from msw in the same process, and on a machine
// busy with the rest of the suite (CI runs the API tests' PostgreSQL beside it) a render can take longer than 1 s.
configure({ asyncUtilTimeout: 3000 });

afterEach(() => {
  cleanup();
  sessionStorage.clear();
  localStorage.clear();
  vi.useRealTimers();
});

// jsdom has no layout: media queries never match (the desktop layout) unless a test says otherwise.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}
window.HTMLElement.prototype.scrollIntoView ??= function scrollIntoView() {};

// jsdom has no ResizeObserver; Fluent's MessageBar measures itself with one.
window.ResizeObserver ??= class ResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
};

// jsdom lays nothing out, so its offsetParent is always null, which tabster (Fluent's focus manager) reads as
// "display: none": a dialog then finds no control to focus, focuses its surface, and tabster's deferred modal update
// can mark the open dialog itself aria-hidden (on a busy machine, while a test is still reading it). An element is
// given the offsetParent a browser would give a displayed one: null only when it or an ancestor is not displayed.
const displayed = (element: HTMLElement | null): boolean =>
  element === null ||
  (!element.hidden && window.getComputedStyle(element).display !== 'none' && displayed(element.parentElement));
Object.defineProperty(window.HTMLElement.prototype, 'offsetParent', {
  configurable: true,
  get(this: HTMLElement): Element | null {
    if (this === document.body || this === document.documentElement || !this.isConnected) return null;
    return displayed(this) ? this.parentElement : null;
  },
});
// The same check asks whether the page itself has a size (a page in a hidden frame has none): it has the window's.
window.HTMLBodyElement.prototype.getBoundingClientRect = function getBoundingClientRect() {
  return DOMRect.fromRect({ x: 0, y: 0, width: window.innerWidth, height: window.innerHeight });
};
