import { randomBytes } from 'node:crypto';
import { expect } from '@playwright/test';
import { softAuthenticator } from '@ums/testkit/webauthn';
import { accessibilityViolations, memberApi, platformAuthenticator, test } from '../fixtures.js';

const PASSWORD = 'Passkey-Journey-2026!';

test('a member signs in with a passkey alone in Chromium (virtual authenticator), with no password typed', async ({
  page,
  baseURL,
}) => {
  const base = baseURL!;
  const email = `passkey-journey-${randomBytes(4).toString('hex')}@example.com`;
  // The member's passkey, registered through the API (the Security section's calls) from an authenticator whose
  // key then goes into Chromium's virtual authenticator: the browser holds the same passkey the server knows.
  const call = await memberApi(base, email, PASSWORD);
  const authenticator = softAuthenticator({ origin: base });
  const options = (await call('/api/security/passkeys/options', {})) as unknown as Parameters<
    typeof authenticator.create
  >[0];
  await call('/api/security/passkeys', { response: authenticator.create(options), name: 'Chromium' });
  const credential = authenticator.credentials[0]!;

  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  expect(await accessibilityViolations(page)).toEqual([]);

  // The device's platform authenticator, holding the passkey (its user verification always succeeds).
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const authenticatorId = await platformAuthenticator(cdp);
  await cdp.send('WebAuthn.addCredential', {
    authenticatorId,
    credential: {
      credentialId: credential.id.toString('base64'),
      isResidentCredential: true,
      rpId: new URL(base).hostname,
      privateKey: credential.privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
      userHandle: Buffer.from(credential.userHandle, 'base64url').toString('base64'),
      signCount: credential.counter,
    },
  });

  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await page.waitForURL((url) => url.pathname === '/' && !url.searchParams.has('code'));
  // Signed in as the passkey's member, whose email the account page shows.
  await expect(page.getByRole('heading', { name: 'My Account', level: 1 })).toBeVisible();
  await expect(page.getByText(email).first()).toBeVisible();
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials[0]!.signCount).toBeGreaterThan(credential.counter);
});
