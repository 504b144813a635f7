// What the web build and the server share about a page's static first paint (decision 035). Free of any schema
// library: the page's start script imports it.

/** The JSON element listing the app's scripts for the start script to fetch once the first paint is drawn. */
export const SCRIPTS_ELEMENT_ID = 'ums-scripts';

/** The account page's first paint, as the web build writes it (`first-paint.json`) and the server reads it. */
export interface FirstPaint {
  /** The addresses whose page opens with it. */
  paths: string[];
  /** Goes into the page's head. */
  css: string;
  /** Goes before the app's root element. */
  html: string;
}

/** What the page lists for the start script. */
export interface PageScripts {
  /** The app's entry module. */
  entry: string;
  /** The modules it and the page's area import, fetched side by side instead of one import after another. */
  preload: string[];
}
