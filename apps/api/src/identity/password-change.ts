import { passwordProblemText } from '@ums/contracts';
import type { AppConfig } from '../config/env.js';
import type { Database } from '../db/client.js';
import type { AuthUser } from '../plugins/auth.js';
import { HttpError } from '../plugins/http-errors.js';
import { attemptKey, createAttemptLimiter } from './attempt-limiter.js';
import { createAccountService } from './accounts.service.js';
import { hashPassword } from './password-hash.js';
import type { RequestOrigin } from './security-events.js';
import type { FactorService } from './factors.js';
import type { SecurityService } from './security.service.js';
import { voidResetLinks } from './password-reset.js';
import { endAccountSessions } from './sessions.js';

export const MAX_PASSWORD_ATTEMPTS = 5;
const ATTEMPT_WINDOW_MS = 15 * 60 * 1000;

/** How often a member may give their current password to confirm a change (a password change, closing the account). */
export const currentPasswordLimit = (action: string, subject: string) => ({
  key: attemptKey(action, subject),
  max: MAX_PASSWORD_ATTEMPTS,
  windowMs: ATTEMPT_WINDOW_MS,
});

export const PASSWORD_MESSAGES = {
  changed: 'Password changed',
  wrongCurrent: 'Current password is incorrect.',
  tooMany: 'Too many attempts. Please wait before trying again.',
  managedElsewhere: 'Passwords are managed by your identity provider: change yours there.',
  sessionExpired: 'Your session has expired. Please sign in again.',
  providerFailed: 'The identity provider could not change the password. Please try again later.',
} as const;

export interface PasswordChange {
  previousPassword: string;
  proposedPassword: string;
  /** An account with a second factor confirms with it too (an authenticator or recovery code). */
  code?: string | undefined;
}

/** Calls Cognito's ChangePassword with the member's own access token; its errors become our statuses. */
export async function cognitoChangePassword(endpoint: string, accessToken: string, change: PasswordChange) {
  let response: Response;
  try {
    response = await fetch(endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': 'AWSCognitoIdentityProviderService.ChangePassword',
      },
      body: JSON.stringify({
        PreviousPassword: change.previousPassword,
        ProposedPassword: change.proposedPassword,
        AccessToken: accessToken,
      }),
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    throw new HttpError(500, PASSWORD_MESSAGES.providerFailed);
  }
  if (response.ok) return;
  const body = (await response.json().catch(() => ({}))) as { __type?: string; message?: string };
  const type = (body.__type ?? '').split('#').pop();
  const message = body.message ?? '';
  switch (type) {
    case 'NotAuthorizedException':
      throw /access token/i.test(message)
        ? new HttpError(401, PASSWORD_MESSAGES.sessionExpired)
        : new HttpError(400, PASSWORD_MESSAGES.wrongCurrent);
    case 'InvalidPasswordException':
    case 'InvalidParameterException':
      throw new HttpError(400, message || 'The new password does not meet the requirements.');
    case 'LimitExceededException':
    case 'TooManyRequestsException':
      throw new HttpError(429, PASSWORD_MESSAGES.tooMany);
    default:
      throw new HttpError(500, PASSWORD_MESSAGES.providerFailed);
  }
}

export function createPasswordChangeService({
  db,
  config,
  security,
  factors,
}: {
  db: Database;
  config: AppConfig;
  security: SecurityService;
  /** The embedded provider's second factors; null with another provider, which keeps its own. */
  factors: FactorService | null;
}) {
  const accounts = createAccountService({ db });
  const attempts = createAttemptLimiter({ db });

  return {
    /**
     * Changes the caller's password. The attempt is reserved before the current password is checked (concurrent
     * guesses cannot all pass one count) and released when it succeeds. A change ends every other session of the
     * account, with its grants, refresh tokens and access tokens; the session that made it goes on.
     */
    async change(user: AuthUser, accessToken: string, change: PasswordChange, origin: RequestOrigin): Promise<void> {
      if (config.auth.provider === 'oidc') throw new HttpError(400, PASSWORD_MESSAGES.managedElsewhere);
      const problems = passwordProblemText(change.proposedPassword);
      if (problems) throw new HttpError(400, problems);
      const reservation = await attempts.reserve([currentPasswordLimit('password', user.subject)]);
      if (!reservation.reserved) throw new HttpError(429, PASSWORD_MESSAGES.tooMany);
      if (config.auth.provider === 'cognito') {
        await cognitoChangePassword(config.auth.cognitoEndpoint!, accessToken, change);
        await attempts.release(reservation);
        await db.transaction((tx) => security.passwordChanged(tx, user.subject, origin, user.email));
        security.kickMail();
        return;
      }
      const account = await accounts.confirmPassword(user.subject, change.previousPassword);
      if (!account) throw new HttpError(400, PASSWORD_MESSAGES.wrongCurrent);
      await factors?.confirmWithSecondFactor(account, change.code, origin);
      const hash = await hashPassword(change.proposedPassword);
      await db.transaction(async (tx) => {
        await accounts.storeHash(account.accountId, hash, tx);
        await endAccountSessions(tx, account.accountId, { keepGrant: user.grantId });
        await voidResetLinks(tx, account.accountId);
        await security.passwordChanged(tx, account.accountId, origin, account.email);
      });
      security.kickMail();
      await attempts.release(reservation);
    },
  };
}
