import { FACTOR_MESSAGES, SECOND_FACTOR_UI_TEXTS as T, type SecurityFactors } from '@ums/contracts/security';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { apiServer, envelope, failure, useApiServer } from '../../../test/api-server.js';
import { fakeAuth, renderWithProviders, signedInUser, TEST_API } from '../../../test/render.js';
import { recoveryCodesFile } from './recovery-codes-dialog.js';
import { SecondFactors } from './second-factors.js';
import { groupsOfFour, sixDigits } from './totp-setup-dialog.js';

const off: SecurityFactors = {
  passkeys: [],
  totp: { enabled: false, createdAt: null },
  recoveryCodes: { remaining: 0 },
};
const on: SecurityFactors = {
  passkeys: [],
  totp: { enabled: true, createdAt: '2026-11-23T09:00:00.000Z' },
  recoveryCodes: { remaining: 10 },
};
const codes = Array.from({ length: 10 }, (_, i) => `code-${i}`);

describe('second factors in Security', () => {
  useApiServer();
  const render = () => renderWithProviders(<SecondFactors />, { auth: fakeAuth({ user: signedInUser() }) });

  it('sets up an authenticator app: QR code, the key in groups of four, a code, then the recovery codes', async () => {
    let factors = off;
    const sent: unknown[] = [];
    apiServer.use(
      http.get(`${TEST_API}/security/factors`, () => HttpResponse.json(envelope([factors]))),
      http.post(`${TEST_API}/security/totp/setup`, () =>
        HttpResponse.json(
          envelope([{ secret: 'JBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/UMS:a@b.c?secret=JBSWY3DPEHPK3PXP' }]),
        ),
      ),
      http.post(`${TEST_API}/security/totp`, async ({ request }) => {
        const body = (await request.json()) as { code: string };
        sent.push(body);
        if (body.code !== '123456') return HttpResponse.json(failure(FACTOR_MESSAGES.wrongCode), { status: 400 });
        factors = on;
        return HttpResponse.json(envelope([{ recoveryCodes: codes }], FACTOR_MESSAGES.totpEnabled));
      }),
    );
    render();
    expect(await screen.findByText(T.authenticatorOff)).toBeTruthy();
    expect(screen.queryByText(T.recoveryTitle)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: T.setUp }));
    const dialog = await screen.findByRole('dialog', { name: T.setupTitle });
    expect(await within(dialog).findByText('JBSW Y3DP EHPK 3PXP')).toBeTruthy();
    expect(await within(dialog).findByRole('img', { name: T.qrLabel }, { timeout: 5000 })).toBeTruthy();
    const input = within(dialog).getByRole('textbox', { name: new RegExp(T.codeLabel) });
    expect(input.getAttribute('inputmode')).toBe('numeric');
    expect(input.getAttribute('autocomplete')).toBe('one-time-code');

    fireEvent.change(input, { target: { value: '111 111' } });
    fireEvent.click(within(dialog).getByRole('button', { name: T.confirm }));
    expect(await within(dialog).findByText(FACTOR_MESSAGES.wrongCode)).toBeTruthy();
    fireEvent.change(input, { target: { value: '123 456' } });
    fireEvent.click(within(dialog).getByRole('button', { name: T.confirm }));

    const shown = await screen.findByRole('alertdialog', { name: T.codesTitle });
    expect(within(within(shown).getByRole('list', { name: T.codesListLabel })).getAllByRole('listitem')).toHaveLength(
      10,
    );
    expect(sent).toEqual([{ code: '111111' }, { code: '123456' }]);
    const done = within(shown).getByRole('button', { name: T.done });
    expect(done.hasAttribute('disabled')).toBe(true);
    fireEvent.click(within(shown).getByRole('checkbox', { name: T.saved }));
    fireEvent.click(done);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(await screen.findByText(T.remaining(10))).toBeTruthy();
  });

  // One modal per test: in jsdom, Fluent's focus manager can leave a modal opened right after another one closed
  // hidden from assistive technology (a real browser does not: the journeys check these dialogs with axe).
  it('makes new recovery codes after a confirmation, shown once in the same dialog', async () => {
    apiServer.use(
      http.get(`${TEST_API}/security/factors`, () => HttpResponse.json(envelope([on]))),
      http.post(`${TEST_API}/security/recovery-codes`, () =>
        HttpResponse.json(envelope([{ recoveryCodes: codes }], FACTOR_MESSAGES.codesRegenerated)),
      ),
    );
    render();
    fireEvent.click(await screen.findByRole('button', { name: T.regenerate }));
    const asking = await screen.findByRole('alertdialog', { name: T.regenerateTitle });
    expect(asking.textContent).toContain(T.regenerateBody);
    fireEvent.click(within(asking).getByRole('button', { name: T.regenerate }));
    const shown = await screen.findByRole('alertdialog', { name: T.codesTitle });
    expect(within(within(shown).getByRole('list', { name: T.codesListLabel })).getAllByRole('listitem')).toHaveLength(
      10,
    );
    fireEvent.click(within(shown).getByRole('checkbox', { name: T.saved }));
    fireEvent.click(within(shown).getByRole('button', { name: T.done }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it('removes the app after a confirmation', async () => {
    let factors = on;
    apiServer.use(
      http.get(`${TEST_API}/security/factors`, () => HttpResponse.json(envelope([factors]))),
      http.delete(`${TEST_API}/security/totp`, () => {
        factors = off;
        return HttpResponse.json(envelope([], FACTOR_MESSAGES.totpRemoved));
      }),
    );
    render();
    fireEvent.click(await screen.findByRole('button', { name: T.remove }));
    const removing = await screen.findByRole('alertdialog', { name: T.removeTitle });
    expect(removing.textContent).toContain(T.removeBody);
    fireEvent.click(within(removing).getByRole('button', { name: T.remove }));
    expect(await screen.findByRole('button', { name: T.setUp })).toBeTruthy();
  });

  it('says the identity provider manages sign-in methods when the API answers 501', async () => {
    apiServer.use(
      http.get(`${TEST_API}/security/factors`, () => HttpResponse.json(failure(T.managedElsewhere), { status: 501 })),
    );
    render();
    expect(await screen.findByText(T.managedElsewhere)).toBeTruthy();
  });

  it('groups the key, reads codes with spaces, and writes the codes file', () => {
    expect(groupsOfFour('ABCDEFGHIJ')).toBe('ABCD EFGH IJ');
    expect(sixDigits(' 123 456 ')).toBe('123456');
    expect(sixDigits('12345')).toBeNull();
    expect(recoveryCodesFile(['a', 'b'])).toBe(`${T.fileHeading}\n\na\nb\n`);
  });
});
