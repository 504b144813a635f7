// The account page's first paint: plain HTML and CSS the server writes into the page itself, so a member sees the
// page's frame and headings as soon as the document arrives, before any script has been downloaded (issue 32: a new
// tab with an empty cache). Plain TypeScript on purpose: the build (vite.config.ts) turns it into first-paint.json,
// and the app removes it (lib/first-paint.ts) when it shows its own screen in the same place.
import type { FirstPaint } from '@ums/contracts/first-paint';
import { ACCOUNT_PAGE_MAX_WIDTH, DRAWER_WIDTH, HEADER_HEIGHT, MOBILE_QUERY } from '../../config/layout.js';
import { ACCOUNT_SECTIONS } from './account-sections.js';
import { ACCOUNT_TITLE } from './messages.js';
import { FIRST_PAINT_ID } from '../../lib/first-paint.js';

const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/**
 * The same boxes as the app's AppShell and AccountPage at the moment they first paint (no data yet): the header
 * with its title between the menu button's and the Logout button's room, the drawer's panel on a desktop, the
 * page's title and its first section's heading. Only the theme's variables (already in the page) and these rules:
 * an end-to-end test holds every text here to the place the app then draws it in.
 */
export function accountFirstPaint(): FirstPaint {
  const [first] = ACCOUNT_SECTIONS;
  const id = `#${FIRST_PAINT_ID}`;
  const css = [
    // Over whatever the app draws underneath until it draws the page itself (its "Loading..." while it reads the
    // session), so the member sees one page, not a page, a spinner and the page again.
    `${id}{position:fixed;inset:0;z-index:100;overflow:hidden;background:var(--colorNeutralBackground1);`,
    `color:var(--colorNeutralForeground1);font-family:var(--fontFamilyBase);font-size:var(--fontSizeBase300);`,
    `line-height:var(--lineHeightBase300);font-weight:var(--fontWeightRegular);text-align:left}`,
    `${id} header{position:fixed;top:0;left:0;right:0;height:${HEADER_HEIGHT}px;display:flex;align-items:center;`,
    `gap:var(--spacingHorizontalM);padding-inline:var(--spacingHorizontalM);`,
    `background:var(--colorBrandBackground);color:var(--colorNeutralForegroundOnBrand);box-shadow:var(--shadow4)}`,
    // The header's buttons come with the app; their room is kept so the title does not move when they do (Fluent's
    // medium buttons: the menu button is a 32 px square, the Logout button at least 96 px wide).
    `${id} .menu{width:32px;height:32px;flex-shrink:0}`,
    `${id} .logout{min-width:96px;height:32px;flex-shrink:0}`,
    `${id} header p{flex-grow:1;margin:0;font-family:var(--umsFontHeading);font-size:var(--fontSizeBase500);`,
    `font-weight:var(--fontWeightSemibold);letter-spacing:0.02em}`,
    `${id} .body{display:flex;padding-top:${HEADER_HEIGHT}px}`,
    `${id} .drawer{width:${DRAWER_WIDTH}px;height:calc(100vh - ${HEADER_HEIGHT}px);flex-shrink:0;`,
    `box-sizing:border-box;border-inline-end:var(--strokeWidthThin) solid var(--colorNeutralStroke2)}`,
    `${id} main{flex-grow:1;min-width:0;padding:var(--spacingHorizontalXL)}`,
    `${id} .page{max-width:${ACCOUNT_PAGE_MAX_WIDTH}px;display:grid;gap:var(--spacingVerticalXXL)}`,
    // Headings as the page-wide styles draw them (app/global.css).
    `${id} h1,${id} h2{font-family:var(--umsFontHeading);font-weight:600;letter-spacing:0.01em;margin:0 0 0.5em}`,
    `${id} h1{font-size:2rem}${id} h2{font-size:1.5rem}`,
    `@media ${MOBILE_QUERY}{${id} .drawer{display:none}${id} main{padding:var(--spacingHorizontalM)}}`,
  ].join('');
  const html =
    `<div id="${FIRST_PAINT_ID}" aria-hidden="true">` +
    `<header><span class="menu"></span><p>${escapeHtml(ACCOUNT_TITLE)}</p><span class="logout"></span></header>` +
    `<div class="body"><div class="drawer"></div><main><div class="page">` +
    `<h1>${escapeHtml(ACCOUNT_TITLE)}</h1><section><h2>${escapeHtml(first.label)}</h2></section>` +
    `</div></main></div></div>`;
  // Only where the page opens at its top: a section's own address opens the page scrolled to that section.
  return { paths: ['/', `/${first.id}`], css, html };
}
