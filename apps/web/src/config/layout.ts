/** SPEC section 9: layout constants shared by the shell and the screens. */
export const HEADER_HEIGHT = 64;
export const DRAWER_WIDTH = 240;
/** The account page's widest extent. */
export const ACCOUNT_PAGE_MAX_WIDTH = 960;
export const MOBILE_DRAWER_WIDTH = 320;
export const MOBILE_BREAKPOINT = 768;
export const MOBILE_QUERY = `(max-width: ${MOBILE_BREAKPOINT}px)`;
/** SPEC sections 2 and 9: the promotional products checklist scrolls past this height. */
export const PROMOTIONAL_LIST_MAX_HEIGHT = 400;
