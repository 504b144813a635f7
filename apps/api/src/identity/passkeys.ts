import { PASSKEY_MESSAGES } from '@ums/contracts';
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransport,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
  VerifiedAuthenticationResponse,
  VerifiedRegistrationResponse,
} from '@simplewebauthn/server';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { AppConfig } from '../config/env.js';
import type { Database } from '../db/client.js';
import { passkeys, recoveryCodes, webauthnChallenges } from '../db/schema/index.js';
import { HttpError } from '../plugins/http-errors.js';
import { hasSecondFactor, issueRecoveryCodes } from './factors.js';
import type { RequestOrigin } from './security-events.js';
import type { SecurityService } from './security.service.js';
import { onFirstUse } from '../lib/on-first-use.js';

/** A ceremony's challenge works once, within this time (the browser's own timeout is the same). */
const CHALLENGE_MS = 5 * 60 * 1000;
const webauthn = onFirstUse(() => import('@simplewebauthn/server'));
type Purpose = 'register' | 'sign-in';

/**
 * How a passkey sign-in is named in tokens (RFC 8176): `hwk` for a key bound to one device, `swk` for a synced one;
 * with user verification (always required here) it is two factors, so `mfa` too.
 */
export const passkeyAmr = (backedUp: boolean) => [backedUp ? 'swk' : 'hwk', 'mfa'];

/** The challenge inside a browser's response (its clientDataJSON), or null when there is none to read. */
function challengeOf(response: { response?: { clientDataJSON?: unknown } }): string | null {
  try {
    const clientData = JSON.parse(Buffer.from(String(response.response?.clientDataJSON), 'base64url').toString());
    return typeof clientData.challenge === 'string' ? clientData.challenge : null;
  } catch {
    return null;
  }
}

/**
 * Passkeys (WebAuthn) of the embedded provider's accounts: registered from the Security section, used to sign in
 * without a password or as the second step after one. Every challenge is stored for one purpose (and one account where
 * it is known) and deleted as it is used, so it works once, on any process; user verification is required throughout.
 */
export function createPasskeyService({
  db,
  config,
  security,
}: {
  db: Database;
  config: Pick<AppConfig, 'passkeys' | 'web'>;
  security: SecurityService;
}) {
  const { rpId, origin } = config.passkeys;

  async function storeChallenge(challenge: string, purpose: Purpose, accountId: string | null) {
    await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, sql`now()`));
    await db
      .insert(webauthnChallenges)
      .values({ challenge, purpose, accountId, expiresAt: new Date(Date.now() + CHALLENGE_MS) });
  }

  /**
   * Spends a challenge: true only once, for its purpose and account, before it expires. A database failure is kept
   * apart (`failure`), so it answers as one instead of as a refused passkey.
   */
  const spendChallenge = (purpose: Purpose, accountId: string | null) => {
    const check = async (challenge: string) => {
      try {
        return await spend(challenge, purpose, accountId);
      } catch (error) {
        check.failure = error;
        throw error;
      }
    };
    check.failure = undefined as unknown;
    return check;
  };

  async function spend(challenge: string, purpose: Purpose, accountId: string | null) {
    const spent = await db
      .delete(webauthnChallenges)
      .where(
        and(
          eq(webauthnChallenges.challenge, challenge),
          eq(webauthnChallenges.purpose, purpose),
          accountId === null ? isNull(webauthnChallenges.accountId) : eq(webauthnChallenges.accountId, accountId),
          gt(webauthnChallenges.expiresAt, sql`now()`),
        ),
      )
      .returning({ challenge: webauthnChallenges.challenge });
    return spent.length === 1;
  }

  async function owned(accountId: string, id: string) {
    const [row] = await db
      .select()
      .from(passkeys)
      .where(and(eq(passkeys.id, id), eq(passkeys.accountId, accountId)));
    if (!row) throw new HttpError(404, PASSKEY_MESSAGES.notFound);
    return row;
  }

  return {
    /** Creation options: a discoverable credential with user verification, the account's passkeys excluded. */
    async registrationOptions(accountId: string, email: string): Promise<PublicKeyCredentialCreationOptionsJSON> {
      const existing = await db
        .select({ id: passkeys.id, transports: passkeys.transports })
        .from(passkeys)
        .where(eq(passkeys.accountId, accountId));
      const { generateRegistrationOptions } = await webauthn();
      const options = await generateRegistrationOptions({
        rpName: config.web.company.name,
        rpID: rpId,
        userName: email,
        userID: Buffer.from(accountId, 'utf8'),
        attestationType: 'none',
        excludeCredentials: existing.map((key) => ({
          id: key.id,
          transports: key.transports as AuthenticatorTransport[],
        })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
        timeout: CHALLENGE_MS,
      });
      await storeChallenge(options.challenge, 'register', accountId);
      return options;
    },

    /** Verifies the browser's new credential and keeps its public key; the answer carries recovery codes if first. */
    async register(
      accountId: string,
      response: RegistrationResponseJSON,
      name: string,
      requestOrigin: RequestOrigin,
    ): Promise<{ id: string; recoveryCodes?: string[] }> {
      if (!challengeOf(response)) throw new HttpError(400, PASSKEY_MESSAGES.refused);
      const { verifyRegistrationResponse } = await webauthn();
      let verification: VerifiedRegistrationResponse;
      const expectedChallenge = spendChallenge('register', accountId);
      try {
        verification = await verifyRegistrationResponse({
          response,
          expectedChallenge,
          expectedOrigin: origin,
          expectedRPID: rpId,
          requireUserVerification: true,
        });
      } catch {
        if (expectedChallenge.failure) throw expectedChallenge.failure;
        throw new HttpError(400, PASSKEY_MESSAGES.refused);
      }
      if (!verification.verified) throw new HttpError(400, PASSKEY_MESSAGES.refused);
      const { credential, credentialBackedUp } = verification.registrationInfo;
      const codes = await db.transaction(async (tx) => {
        const first = !(await hasSecondFactor(tx, accountId));
        const added = await tx
          .insert(passkeys)
          .values({
            id: credential.id,
            accountId,
            name,
            publicKey: Buffer.from(credential.publicKey).toString('base64url'),
            counter: credential.counter,
            transports: credential.transports ?? [],
            backedUp: credentialBackedUp,
          })
          .onConflictDoNothing()
          .returning({ id: passkeys.id });
        if (added.length === 0) throw new HttpError(409, PASSKEY_MESSAGES.alreadyRegistered);
        await security.factorEvent(tx, accountId, 'factor-added', requestOrigin);
        return first ? issueRecoveryCodes(tx, accountId) : undefined;
      });
      security.kickMail();
      return codes ? { id: credential.id, recoveryCodes: codes } : { id: credential.id };
    },

    async rename(accountId: string, id: string, name: string): Promise<void> {
      await owned(accountId, id);
      await db
        .update(passkeys)
        .set({ name })
        .where(and(eq(passkeys.id, id), eq(passkeys.accountId, accountId)));
    },

    /** Removes a passkey; with no second factor left, the recovery codes go too. */
    async remove(accountId: string, id: string, requestOrigin: RequestOrigin): Promise<void> {
      await db.transaction(async (tx) => {
        const removed = await tx
          .delete(passkeys)
          .where(and(eq(passkeys.id, id), eq(passkeys.accountId, accountId)))
          .returning({ id: passkeys.id });
        if (removed.length === 0) throw new HttpError(404, PASSKEY_MESSAGES.notFound);
        if (!(await hasSecondFactor(tx, accountId))) {
          await tx.delete(recoveryCodes).where(eq(recoveryCodes.accountId, accountId));
        }
        await security.factorEvent(tx, accountId, 'factor-removed', requestOrigin);
      });
      security.kickMail();
    },

    /** Whether the account has a passkey (the second step offers "Use a passkey" then). */
    async has(accountId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: passkeys.id })
        .from(passkeys)
        .where(eq(passkeys.accountId, accountId))
        .limit(1);
      return row !== undefined;
    },

    /**
     * Request options for a sign-in: any discoverable passkey of this site (no account yet), or, as the second step,
     * the account's own.
     */
    async signInOptions(accountId: string | null): Promise<PublicKeyCredentialRequestOptionsJSON> {
      const allow = accountId
        ? await db
            .select({ id: passkeys.id, transports: passkeys.transports })
            .from(passkeys)
            .where(eq(passkeys.accountId, accountId))
        : [];
      const { generateAuthenticationOptions } = await webauthn();
      const options = await generateAuthenticationOptions({
        rpID: rpId,
        userVerification: 'required',
        timeout: CHALLENGE_MS,
        allowCredentials: allow.map((key) => ({
          id: key.id,
          transports: key.transports as AuthenticatorTransport[],
        })),
      });
      await storeChallenge(options.challenge, 'sign-in', accountId);
      return options;
    },

    /**
     * Verifies a sign-in assertion (of the given account's passkeys for a second step): the account and the `amr` it
     * signs in with, or null. The signature counter and the last use are kept.
     */
    async verifySignIn(
      response: AuthenticationResponseJSON,
      accountId: string | null,
    ): Promise<{ accountId: string; amr: string[] } | null> {
      if (!challengeOf(response) || typeof response.id !== 'string') return null;
      const [key] = await db
        .select()
        .from(passkeys)
        .where(
          accountId === null
            ? eq(passkeys.id, response.id)
            : and(eq(passkeys.id, response.id), eq(passkeys.accountId, accountId)),
        );
      if (!key) return null;
      const { verifyAuthenticationResponse } = await webauthn();
      let verification: VerifiedAuthenticationResponse;
      const expectedChallenge = spendChallenge('sign-in', accountId);
      try {
        verification = await verifyAuthenticationResponse({
          response,
          expectedChallenge,
          expectedOrigin: origin,
          expectedRPID: rpId,
          requireUserVerification: true,
          credential: {
            id: key.id,
            publicKey: Buffer.from(key.publicKey, 'base64url'),
            counter: key.counter,
            transports: key.transports as AuthenticatorTransport[],
          },
        });
      } catch {
        // A database failure answers as one; anything else is an answer that does not verify.
        if (expectedChallenge.failure) throw expectedChallenge.failure;
        return null;
      }
      if (!verification.verified) return null;
      const { newCounter, credentialBackedUp } = verification.authenticationInfo;
      await db
        .update(passkeys)
        .set({ counter: newCounter, backedUp: credentialBackedUp, lastUsedAt: sql`now()` })
        .where(eq(passkeys.id, key.id));
      return { accountId: key.accountId, amr: passkeyAmr(credentialBackedUp) };
    },
  };
}
export type PasskeyService = ReturnType<typeof createPasskeyService>;
