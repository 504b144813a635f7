import { afterEach, describe, expect, it, vi } from 'vitest';
import { SCRIPTS_ELEMENT_ID } from '@ums/contracts/first-paint';
import { FIRST_PAINT_ID } from './lib/first-paint.js';

afterEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
  vi.resetModules();
});

/** Runs the start script on a page that lists `entry`, as a page opened in a background tab (no frame to wait for). */
async function startWith(entry: string) {
  document.head.innerHTML = `<script id="${SCRIPTS_ELEMENT_ID}" type="application/json">${JSON.stringify({
    entry,
    preload: ['/assets/framework.js'],
  })}</script>`;
  document.body.innerHTML = `<div id="${FIRST_PAINT_ID}"><h1>My Account</h1></div><div id="root"></div>`;
  vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  return import('./start.js');
}

describe('the start script', () => {
  it('names the first paint as the app does', async () => {
    expect((await import('./start.js')).FIRST_PAINT_ELEMENT).toBe(FIRST_PAINT_ID);
  });

  it('preloads the listed modules, and removes the first paint when the app cannot be loaded', async () => {
    await startWith('/assets/gone-after-a-release.js');
    expect([...document.head.querySelectorAll('link[rel="modulepreload"]')].map((l) => l.getAttribute('href'))).toEqual(
      ['/assets/framework.js'],
    );
    await vi.waitFor(() => expect(document.getElementById(FIRST_PAINT_ID)).toBeNull());
  });
});
