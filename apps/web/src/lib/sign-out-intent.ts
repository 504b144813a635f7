/**
 * The app's own sign-out buttons mark the sign-out as asked for just before they open the sign-out screen, and the
 * screen signs out at once only when it finds that mark, fresh, and takes it: a link to the screen from elsewhere
 * (another site, a mail) cannot sign a member out, the screen asks instead. Session storage is this tab's and this
 * origin's alone, so no other site can set the mark.
 */
const KEY = 'ums.sign-out-intent';
/** Long enough for the screen's chunk to load on a slow phone; too short to be left lying for a later visit. */
export const SIGN_OUT_INTENT_MS = 60_000;

export function markSignOutIntent(now = Date.now()): void {
  try {
    sessionStorage.setItem(KEY, String(now));
  } catch {
    // Storage refused (a private mode): the screen will ask, which is the safe side.
  }
}

/** Whether a fresh mark is waiting, without taking it (pure, so a render may call it). */
export function hasSignOutIntent(now = Date.now()): boolean {
  try {
    const at = Number(sessionStorage.getItem(KEY));
    return at > 0 && now >= at && now - at < SIGN_OUT_INTENT_MS;
  } catch {
    return false;
  }
}

/** Takes the mark: it works once. */
export function clearSignOutIntent(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing stored.
  }
}
