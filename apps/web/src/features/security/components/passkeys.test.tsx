import {
  PASSKEY_MESSAGES,
  PASSKEY_NAME_MAX,
  passkeyNameProblem,
  SECOND_FACTOR_UI_TEXTS as T,
  type SecurityFactors,
} from '@ums/contracts/security';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiServer, envelope, failure, useApiServer } from '../../../test/api-server.js';
import { fakeAuth, renderWithProviders, signedInUser, TEST_API } from '../../../test/render.js';
import { passkeyAddProblem, suggestPasskeyName } from '../passkey-name.js';
import { SecondFactors } from './second-factors.js';

// Dialogs open and close with Fluent's transitions: on a busy machine they take longer than the default second.
configure({ asyncUtilTimeout: 5000 });

const browser = vi.hoisted(() => ({ startRegistration: vi.fn(), sendSignal: vi.fn() }));
vi.mock('@simplewebauthn/browser', () => browser);

const laptop = {
  id: 'cred-laptop',
  name: 'Work laptop',
  createdAt: '2026-11-20T09:00:00.000Z',
  lastUsedAt: '2026-11-24T10:30:00.000Z',
  backedUp: false,
};
const phone = {
  id: 'cred-phone',
  name: 'Phone',
  createdAt: '2026-11-21T09:00:00.000Z',
  lastUsedAt: null,
  backedUp: true,
};
const factorsWith = (passkeys: SecurityFactors['passkeys']): SecurityFactors => ({
  passkeys,
  totp: { enabled: false, createdAt: null },
  recoveryCodes: { remaining: passkeys.length ? 10 : 0 },
});
const codes = Array.from({ length: 10 }, (_, i) => `code-${i}`);
const creationOptions = {
  challenge: 'challenge',
  rp: { id: 'localhost', name: 'UMS' },
  user: { id: 'dXNlcg', name: 'a@b.c' },
};
const browserAnswer = {
  id: 'cred-new',
  rawId: 'cred-new',
  type: 'public-key',
  response: {},
  clientExtensionResults: {},
};

/** The API's passkey routes over a list the test can read back. */
function passkeyApi(start: SecurityFactors['passkeys']) {
  const state = { passkeys: [...start], saved: [] as unknown[], renamed: [] as unknown[], removed: [] as string[] };
  apiServer.use(
    http.get(`${TEST_API}/security/factors`, () => HttpResponse.json(envelope([factorsWith(state.passkeys)]))),
    http.post(`${TEST_API}/security/passkeys/options`, () => HttpResponse.json(envelope([creationOptions]))),
    http.post(`${TEST_API}/security/passkeys`, async ({ request }) => {
      const body = (await request.json()) as { name: string };
      state.saved.push(body);
      const first = state.passkeys.length === 0;
      state.passkeys.push({
        id: 'cred-new',
        name: body.name,
        createdAt: new Date().toISOString(),
        lastUsedAt: null,
        backedUp: true,
      });
      return HttpResponse.json(
        envelope([{ id: 'cred-new', ...(first ? { recoveryCodes: codes } : {}) }], PASSKEY_MESSAGES.added),
      );
    }),
    http.patch(`${TEST_API}/security/passkeys/:id`, async ({ request, params }) => {
      const body = (await request.json()) as { name: string };
      state.renamed.push({ id: params['id'], ...body });
      state.passkeys = state.passkeys.map((p) => (p.id === params['id'] ? { ...p, name: body.name } : p));
      return HttpResponse.json(envelope([], PASSKEY_MESSAGES.renamed));
    }),
    http.delete(`${TEST_API}/security/passkeys/:id`, ({ params }) => {
      state.removed.push(String(params['id']));
      state.passkeys = state.passkeys.filter((p) => p.id !== params['id']);
      return HttpResponse.json(envelope([], PASSKEY_MESSAGES.removed));
    }),
  );
  return state;
}

describe('passkeys in Security', () => {
  useApiServer();
  afterEach(() => {
    browser.startRegistration.mockReset();
    browser.sendSignal.mockReset();
  });
  const render = () => renderWithProviders(<SecondFactors />, { auth: fakeAuth({ user: signedInUser() }) });
  const passkeysPart = async () => screen.findByRole('region', { name: T.passkeysTitle });

  it('lists each passkey with its name, when it was added and last used, and whether it is synced', async () => {
    passkeyApi([laptop, phone]);
    render();
    const list = within(await passkeysPart()).getByRole('list', { name: T.passkeysTitle });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(first!.textContent).toContain(laptop.name);
    expect(first!.textContent).toContain(T.passkeyDeviceOnly);
    expect(first!.textContent).toMatch(/Added Nov 20, 2026, \d+:\d\d [AP]M/);
    expect(first!.textContent).toMatch(/Last used Nov 24, 2026, \d+:\d\d [AP]M/);
    expect(second!.textContent).toContain(phone.name);
    expect(second!.textContent).toContain(T.passkeySynced);
    expect(second!.textContent).toContain(T.passkeyLastUsed(null));
    expect(within(first!).getByRole('button', { name: T.renameLabel(laptop.name) })).toBeTruthy();
    expect(within(second!).getByRole('button', { name: T.removeLabel(phone.name) })).toBeTruthy();
    // A passkey is a second factor: the recovery codes are shown with it.
    expect(screen.getByText(T.remaining(10))).toBeTruthy();
  });

  it('adds a passkey: the browser prompt, a name, then the recovery codes in the same dialog', async () => {
    const api = passkeyApi([]);
    browser.startRegistration.mockResolvedValue(browserAnswer);
    render();
    const part = await passkeysPart();
    expect(within(part).getByText(T.passkeysNone)).toBeTruthy();
    fireEvent.click(within(part).getByRole('button', { name: T.addPasskey }));

    const dialog = await screen.findByRole('dialog', { name: T.passkeyNameTitle });
    expect(browser.startRegistration).toHaveBeenCalledWith({ optionsJSON: creationOptions });
    const name = await within(dialog).findByRole('textbox', { name: new RegExp(T.passkeyNameLabel) });
    expect((name as HTMLInputElement).value).toBe(suggestPasskeyName([], navigator.userAgent));
    fireEvent.change(name, { target: { value: '  Security key  ' } });
    fireEvent.click(await within(dialog).findByRole('button', { name: T.save }));

    const shown = await screen.findByRole('alertdialog', { name: T.codesTitle });
    expect(
      within(await within(shown).findByRole('list', { name: T.codesListLabel })).getAllByRole('listitem'),
    ).toHaveLength(10);
    expect(api.saved).toEqual([{ response: browserAnswer, name: 'Security key' }]);
    fireEvent.click(await within(shown).findByRole('checkbox', { name: T.saved }));
    fireEvent.click(await within(shown).findByRole('button', { name: T.done }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(await within(part).findByText('Security key')).toBeTruthy();
    expect(await screen.findByText(T.remaining(10))).toBeTruthy();
  });

  it('saves nothing when the name is cancelled, and tells the browser to forget the passkey it made', async () => {
    const api = passkeyApi([]);
    browser.startRegistration.mockResolvedValue(browserAnswer);
    browser.sendSignal.mockResolvedValue(undefined);
    render();
    fireEvent.click(within(await passkeysPart()).getByRole('button', { name: T.addPasskey }));
    const dialog = await screen.findByRole('dialog', { name: T.passkeyNameTitle });
    fireEvent.click(await within(dialog).findByRole('button', { name: T.cancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() =>
      expect(browser.sendSignal).toHaveBeenCalledWith({
        signalName: 'unknownCredential',
        rpID: 'localhost',
        credentialID: browserAnswer.id,
      }),
    );
    expect(api.saved).toEqual([]);
    expect(screen.getByText(T.passkeysNone)).toBeTruthy();
  });

  it('says plainly that no passkey was added when the browser prompt is closed', async () => {
    const api = passkeyApi([laptop]);
    browser.startRegistration.mockRejectedValue(
      Object.assign(new Error('The operation either timed out or was not allowed.'), { name: 'NotAllowedError' }),
    );
    render();
    fireEvent.click(within(await passkeysPart()).getByRole('button', { name: T.addPasskey }));
    expect((await screen.findByRole('alert')).textContent).toBe(T.passkeyCancelled);
    expect(screen.queryByText(/timed out or was not allowed/)).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.saved).toEqual([]);
  });

  it('sends the member to sign in again when adding needs a recent sign-in, with no failure shown', async () => {
    passkeyApi([]);
    apiServer.use(
      http.post(`${TEST_API}/security/passkeys/options`, () =>
        HttpResponse.json(failure('For your security, sign in again to do this.'), {
          status: 401,
          headers: { 'WWW-Authenticate': 'Bearer error="insufficient_user_authentication", max_age=300' },
        }),
      ),
    );
    const auth = fakeAuth({ user: signedInUser() });
    renderWithProviders(<SecondFactors />, { auth });
    fireEvent.click(within(await passkeysPart()).getByRole('button', { name: T.addPasskey }));
    await waitFor(() => expect(auth.signinRedirect).toHaveBeenCalledWith({ max_age: 300 }));
    expect(browser.startRegistration).not.toHaveBeenCalled();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('renames a passkey only once the name is one line, not empty and not too long', async () => {
    const api = passkeyApi([laptop]);
    render();
    fireEvent.click(within(await passkeysPart()).getByRole('button', { name: T.renameLabel(laptop.name) }));
    const dialog = await screen.findByRole('dialog', { name: T.renameTitle });
    const name = await within(dialog).findByRole('textbox', { name: new RegExp(T.passkeyNameLabel) });
    expect((name as HTMLInputElement).value).toBe(laptop.name);
    const save = await within(dialog).findByRole('button', { name: T.save });

    for (const bad of ['   ', 'x'.repeat(PASSKEY_NAME_MAX + 1), 'Work\tlaptop']) {
      fireEvent.change(name, { target: { value: bad } });
      fireEvent.click(save);
      expect(await within(dialog).findByText(passkeyNameProblem(bad)!)).toBeTruthy();
    }
    expect(api.renamed).toEqual([]);

    fireEvent.change(name, { target: { value: 'Home laptop' } });
    fireEvent.click(save);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.renamed).toEqual([{ id: laptop.id, name: 'Home laptop' }]);
    expect(await screen.findByText('Home laptop')).toBeTruthy();
  });

  // One modal per test: in jsdom, Fluent's focus manager can leave a modal opened right after another one closed
  // hidden from assistive technology (a real browser does not: the journey checks these dialogs with axe).
  for (const choice of [T.cancel, T.remove]) {
    it(`asks before removing a passkey: ${choice === T.cancel ? 'Cancel keeps it' : 'confirming removes it'}`, async () => {
      const api = passkeyApi([laptop]);
      render();
      const part = await passkeysPart();
      fireEvent.click(within(part).getByRole('button', { name: T.removeLabel(laptop.name) }));
      const asking = await screen.findByRole('alertdialog', { name: T.removePasskeyTitle(laptop.name) });
      expect(asking.textContent).toContain(T.removePasskeyBody);
      fireEvent.click(await within(asking).findByRole('button', { name: choice }));
      await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
      if (choice === T.cancel) {
        expect(api.removed).toEqual([]);
        expect(within(part).getByText(laptop.name)).toBeTruthy();
      } else {
        expect(await within(part).findByText(T.passkeysNone)).toBeTruthy();
        expect(api.removed).toEqual([laptop.id]);
        expect(screen.queryByText(laptop.name)).toBeNull();
      }
    });
  }

  it('suggests a name from the device, numbered when taken, and names browser errors', () => {
    const mac = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Safari/605.1.15';
    expect(suggestPasskeyName([], mac)).toBe(T.passkeySuggestedName('Mac'));
    expect(suggestPasskeyName([T.passkeySuggestedName('Mac')], mac)).toBe(`${T.passkeySuggestedName('Mac')} 2`);
    expect(suggestPasskeyName([], 'curl/8')).toBe(T.passkeySuggestedName(null));
    const named = (name: string) => Object.assign(new Error('x'), { name });
    expect(passkeyAddProblem(named('AbortError'))).toBe(T.passkeyCancelled);
    expect(passkeyAddProblem(named('InvalidStateError'))).toBe(T.passkeyAlreadyHere);
    expect(passkeyAddProblem(named('SecurityError'))).toBe(T.passkeyAddFailed);
  });
});
