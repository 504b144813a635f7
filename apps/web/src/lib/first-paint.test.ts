import { afterEach, describe, expect, it } from 'vitest';
import { FIRST_PAINT_ID, HOLDS_FIRST_PAINT, removeFirstPaintWhenDrawn } from './first-paint.js';

/** Lets the mutation observer's callback run (it runs as a microtask after the change). */
const observed = () => new Promise((resolve) => setTimeout(resolve, 0));

const page = () => {
  document.body.innerHTML = `<div id="${FIRST_PAINT_ID}"><h1>My Account</h1></div><div id="root"></div>`;
  return document.getElementById('root')!;
};

afterEach(() => {
  document.body.innerHTML = '';
});

describe('the static first paint', () => {
  it('stays over the app’s loading screen, and goes when the app draws its own page', async () => {
    const root = page();
    removeFirstPaintWhenDrawn(root);
    root.innerHTML = `<main ${HOLDS_FIRST_PAINT}>Loading...</main>`;
    await observed();
    expect(document.getElementById(FIRST_PAINT_ID)).not.toBeNull();

    root.innerHTML = '<main><h1>My Account</h1></main>';
    await observed();
    expect(document.getElementById(FIRST_PAINT_ID)).toBeNull();
  });

  it('goes when the app draws any other screen, such as "Redirecting to sign in..."', async () => {
    const root = page();
    removeFirstPaintWhenDrawn(root);
    root.innerHTML = '<main>Redirecting to sign in...</main>';
    await observed();
    expect(document.getElementById(FIRST_PAINT_ID)).toBeNull();
  });

  it('goes when the loading screen in place loses its mark', async () => {
    const root = page();
    removeFirstPaintWhenDrawn(root);
    root.innerHTML = `<main ${HOLDS_FIRST_PAINT}>Loading...</main>`;
    await observed();
    root.querySelector('main')!.removeAttribute(HOLDS_FIRST_PAINT);
    await observed();
    expect(document.getElementById(FIRST_PAINT_ID)).toBeNull();
  });
});
