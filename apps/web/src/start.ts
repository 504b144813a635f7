// The first script of a page that carries its static first paint (features/account/first-paint.ts): the page has
// painted its frame and headings from the document alone, and the app's scripts are fetched only after that paint, so
// they do not share the first moments of a slow connection with the stylesheet and fonts that paint needs. The server
// lists them in the page (`ums-scripts`); nothing here is imported by the app, so this file stays a few hundred bytes.

interface Scripts {
  /** The app's entry module. */
  entry: string;
  /** The modules it and the page's area import, fetched side by side instead of one import after another. */
  preload: string[];
}

const SCRIPTS_ELEMENT_ID = 'ums-scripts';

function start(scripts: Scripts) {
  for (const href of scripts.preload) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.append(link);
  }
  void import(/* @vite-ignore */ scripts.entry);
}

const listed = document.getElementById(SCRIPTS_ELEMENT_ID)?.textContent;
if (listed) {
  const scripts = JSON.parse(listed) as Scripts;
  // After the frame that paints the page (a timer set in the frame's callback runs once it is drawn); a tab opened
  // in the background draws no frame until it is shown, so it starts at once.
  if (document.visibilityState === 'visible') requestAnimationFrame(() => setTimeout(() => start(scripts), 0));
  else start(scripts);
}
