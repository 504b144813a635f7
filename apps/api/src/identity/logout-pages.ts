import type { Configuration } from 'oidc-provider';
import { page, SIGN_OUT_SCRIPT } from './pages.js';

type RpInitiatedLogout = NonNullable<NonNullable<Configuration['features']>['rpInitiatedLogout']>;

interface HintPayload {
  sub?: unknown;
  sid?: unknown;
}

/**
 * The provider's sign-out pages: the question (answered by our own script, without asking, only for a hint that
 * names this very session) and the page after signing out.
 */
export function logoutPages(
  publicUrl: string,
  clientId: string,
): Pick<RpInitiatedLogout, 'logoutSource' | 'postLogoutSuccessSource'> {
  return {
    logoutSource: async (ctx, form) => {
      // The provider checked the hint's signature (an expired one passes). Only a hint for this very session
      // proves our own app asked: then no second question. Anyone else's link gets the confirmation page.
      const hint = (ctx.oidc.entities as { IdTokenHint?: { payload: HintPayload } }).IdTokenHint?.payload;
      const session = ctx.oidc.session;
      const hinted =
        hint !== undefined &&
        session?.accountId !== undefined &&
        hint.sub === session.accountId &&
        (hint.sid === undefined || hint.sid === session.sidFor(clientId));
      ctx.body = page(
        'Sign out',
        `<h1>Sign out</h1><p>${hinted ? 'Signing you out...' : 'Do you want to sign out of your membership account?'}</p>${form.replace(
          '</form>',
          '<button type="submit" name="logout" value="yes">Sign out</button></form>',
        )}${hinted ? `<script src="/oidc-assets/${SIGN_OUT_SCRIPT}"></script>` : ''}`,
      );
    },
    postLogoutSuccessSource: async (ctx) => {
      ctx.body = page(
        'Signed out',
        `<h1>Signed out</h1><p>You have been signed out.</p><p><a href="${publicUrl}/">Sign in again</a></p>`,
      );
    },
  };
}
