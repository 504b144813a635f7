import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi, beforeEach } from 'vitest';
import { apiServer, envelope, failure, useApiServer, withoutSecondFactor } from '../../test/api-server.js';
import { fakeAuth, renderWithProviders, signedInUser, TEST_API, testConfig } from '../../test/render.js';
import { LoginDetailsSection } from './components/login-details-section.js';
import { passwordChangeError } from './messages.js';
import { SECOND_FACTOR_UI_TEXTS } from '@ums/contracts/security';
import {
  EMAIL_CHANGE_LINK_HOURS,
  EMAIL_CHANGE_TEXTS,
  type EmailChangeStatus,
} from '@ums/contracts/self-service/email-change';
import { ApiError } from '../../lib/api-client.js';

// Cognito's default set of special characters, written out (SPEC section 8 does not list them).
const SPECIAL_RULE = 'Password must contain at least one special character (^$*.[]{}()?"!@#%&/\\,><\':;|_~`=+-)';

const render = (config: Partial<typeof testConfig> = {}) =>
  renderWithProviders(<LoginDetailsSection />, {
    auth: fakeAuth({ user: signedInUser([], { email: 'member@example.com' }) }),
    config: { ...testConfig, ...config },
  });

/** GET /api/me/email-change as the API answers it for an account with nothing waiting (the test config is in-app). */
const emailStatus = (status: Partial<EmailChangeStatus> = {}): EmailChangeStatus => ({
  email: 'member@example.com',
  emailVerified: true,
  pending: null,
  ...status,
});
const unchangedEmail = http.get(`${TEST_API}/me/email-change`, () => HttpResponse.json(envelope(emailStatus())));

/** Opens the form, which is fetched on first use. */
async function openForm() {
  fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
  const form = await screen.findByRole('form', { name: 'Change password' });
  const fill = (current: string, next: string, confirm: string) => {
    fireEvent.change(within(form).getByLabelText(/Current password/), { target: { value: current } });
    fireEvent.change(within(form).getByLabelText(/New password/), { target: { value: next } });
    fireEvent.change(within(form).getByLabelText(/Confirm password/), { target: { value: confirm } });
  };
  const reset = () => within(form).getByRole('button', { name: /Reset password|Changing\.\.\./ }) as HTMLButtonElement;
  return { form, fill, reset };
}

describe('Login Details', () => {
  useApiServer();
  beforeEach(() => apiServer.use(withoutSecondFactor, unchangedEmail));

  it('shows the email, a masked password and the helper text', async () => {
    render();
    expect(screen.getByText('member@example.com')).toBeTruthy();
    expect(screen.getByText('••••••••')).toBeTruthy();
    await openForm();
    expect(
      screen.getByText(
        'Password must be 8-256 characters with at least one lowercase letter, uppercase letter, number, and special character.',
      ),
    ).toBeTruthy();
  });

  it("offers 'Forgot your password?' leading to the provider's page, and nothing when the provider has none", async () => {
    const { unmount } = render({ forgotPasswordUrl: 'https://id.example.com/forgotPassword?client_id=ums-web' });
    const { form } = await openForm();
    expect(within(form).getByRole('link', { name: 'Forgot your password?' }).getAttribute('href')).toBe(
      'https://id.example.com/forgotPassword?client_id=ums-web',
    );
    unmount();
    render({ forgotPasswordUrl: null });
    const second = await openForm();
    expect(within(second.form).queryByRole('link', { name: 'Forgot your password?' })).toBeNull();
  });

  it('keeps Reset disabled until all three fields are filled', async () => {
    render();
    const { fill, reset } = await openForm();
    expect(reset().disabled).toBe(true);
    fill('a', 'b', '');
    expect(reset().disabled).toBe(true);
    fill('a', 'b', 'c');
    expect(reset().disabled).toBe(false);
  });

  it.each([
    ['short', 'Aa1!', 'Password must be at least 8 characters long'],
    ['long', `Aa1!${'xy'.repeat(127)}`, 'Password must be no more than 256 characters long'],
    ['no lowercase', 'AAAA1111!', 'Password must contain at least one lowercase letter (a-z)'],
    ['no uppercase', 'aaaa1111!', 'Password must contain at least one uppercase letter (A-Z)'],
    ['no number', 'Abcdefgh!', 'Password must contain at least one number (0-9)'],
    ['no special', 'Abcdefgh1', SPECIAL_RULE],
    ['repeats', 'Abbbc123!', 'Password cannot contain more than 2 identical characters in a row'],
  ])('refuses a %s password with the rule message, sending nothing', async (_, password, message) => {
    const posted = vi.fn();
    apiServer.use(http.post(`${TEST_API}/PasswordReset`, posted));
    render();
    const { fill, reset, form } = await openForm();
    fill('Old-Pass-1!', password, password);
    fireEvent.click(reset());
    expect(within(form).getByRole('alert').textContent).toContain(message);
    expect(posted).not.toHaveBeenCalled();
  });

  it('joins several broken rules with ". " and accepts the 8 and 256 character boundaries', async () => {
    render();
    const { fill, reset, form } = await openForm();
    fill('x', 'abc', 'abc');
    fireEvent.click(reset());
    expect(within(form).getByRole('alert').textContent).toBe(
      [
        'Password must be at least 8 characters long',
        'Password must contain at least one uppercase letter (A-Z)',
        'Password must contain at least one number (0-9)',
        SPECIAL_RULE,
      ].join('. '),
    );
    fill('x', 'Abcde1!x', 'Abcde1!y');
    fireEvent.click(reset());
    // 8 characters pass the rules; only the confirmation is wrong now.
    expect(within(form).getByRole('alert').textContent).toBe('New password and confirmation do not match.');
    const longest = `Aa1!${'xy'.repeat(126)}`;
    expect(longest).toHaveLength(256);
    fill('x', longest, `${longest}z`);
    fireEvent.click(reset());
    expect(within(form).getByRole('alert').textContent).toBe('New password and confirmation do not match.');
  });

  it('ticks rules off in the live checklist while typing', async () => {
    render();
    const { fill } = await openForm();
    const checklist = screen.getByRole('list', { name: 'Password rules' });
    fill('', 'abc', '');
    expect(within(checklist).getByText(/at least one lowercase/).textContent).toContain('(met)');
    expect(within(checklist).getByText(/at least one uppercase/).textContent).toContain('(not met)');
  });

  it('says "Changing...", then "Password changed" for 3 s, then closes and resets', async () => {
    let body: unknown;
    // The stand-in API holds its answer until the test has seen the form waiting for it.
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    apiServer.use(
      http.post(`${TEST_API}/PasswordReset`, async ({ request }) => {
        body = await request.json();
        await answered;
        return HttpResponse.json(envelope([], 'Password changed'));
      }),
    );
    // Fake clock that still moves on its own, so the stand-in API answers.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    render();
    const { fill, reset, form } = await openForm();
    fill('Old-Pass-1!', 'New-Pass-2!', 'New-Pass-2!');
    fireEvent.click(reset());
    expect(reset().textContent).toBe('Changing...');
    expect(reset().disabled).toBe(true);
    answer();
    expect(await within(form).findByText('Password changed')).toBeTruthy();
    expect(body).toEqual({ previousPassword: 'Old-Pass-1!', proposedPassword: 'New-Pass-2!' });
    await act(async () => vi.advanceTimersByTime(2900));
    expect(screen.getByRole('form', { name: 'Change password' })).toBeTruthy();
    await act(async () => vi.advanceTimersByTime(100));
    expect(screen.queryByRole('form', { name: 'Change password' })).toBeNull();
    vi.useRealTimers();
    // Opened again, the form is empty.
    const again = await openForm();
    expect((within(again.form).getByLabelText(/Current password/) as HTMLInputElement).value).toBe('');
  });

  it('Cancel closes the form and forgets what was typed', async () => {
    render();
    const { fill, reset, form } = await openForm();
    fill('x', 'abc', 'abd');
    fireEvent.click(reset());
    fireEvent.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('form', { name: 'Change password' })).toBeNull();
    const again = await openForm();
    expect((within(again.form).getByLabelText(/New password/) as HTMLInputElement).value).toBe('');
    expect(within(again.form).queryByRole('alert')).toBeNull();
  });

  it.each([
    [400, 'Current password is incorrect or new password does not meet requirements.'],
    [401, 'You are not authorized to change the password. Please log in again.'],
    [429, 'Too many attempts. Please wait before trying again.'],
    [500, 'Server error occurred. Please try again later.'],
    [503, 'Failed to change password. Please try again.'],
  ])('shows the SPEC text for status %i', async (status, message) => {
    apiServer.use(http.post(`${TEST_API}/PasswordReset`, () => HttpResponse.json(failure('no'), { status })));
    render();
    const { fill, reset, form } = await openForm();
    fill('Old-Pass-1!', 'New-Pass-2!', 'New-Pass-2!');
    fireEvent.click(reset());
    expect((await within(form).findByRole('alert')).textContent).toBe(message);
  });

  it("otherwise shows the error's own message", async () => {
    expect(passwordChangeError(new Error('Failed to fetch'))).toBe('Failed to fetch');
    expect(passwordChangeError(new ApiError(200, 'Password change is managed elsewhere'))).toBe(
      'Password change is managed elsewhere',
    );
  });
});

describe('Login Details for an account with a second factor', () => {
  useApiServer();
  beforeEach(() => apiServer.use(unchangedEmail));

  it('asks for the authentication code beside the passwords and sends it with the change', async () => {
    const sent: unknown[] = [];
    apiServer.use(
      http.get(`${TEST_API}/security/factors`, () =>
        HttpResponse.json(
          envelope([
            {
              passkeys: [],
              totp: { enabled: true, createdAt: '2026-11-01T10:00:00.000Z' },
              recoveryCodes: { remaining: 10 },
            },
          ]),
        ),
      ),
      http.post(`${TEST_API}/PasswordReset`, async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json(envelope([], 'Password changed'));
      }),
    );
    render();
    const { form, fill, reset } = await openForm();
    const code = await within(form).findByRole('textbox', { name: /Authentication code/ });
    expect(within(form).getByText(SECOND_FACTOR_UI_TEXTS.confirmationCodeHint)).toBeTruthy();
    fill('Old-Pass-1!', 'Brand-New-2!', 'Brand-New-2!');
    expect(reset().disabled).toBe(true);
    fireEvent.change(code, { target: { value: ' 123456 ' } });
    expect(reset().disabled).toBe(false);
    fireEvent.click(reset());
    expect(await screen.findByText('Password changed')).toBeTruthy();
    expect(sent).toEqual([{ previousPassword: 'Old-Pass-1!', proposedPassword: 'Brand-New-2!', code: '123456' }]);
  });
});

describe("Login Details' email row", () => {
  useApiServer();
  beforeEach(() => apiServer.use(withoutSecondFactor));

  const T = EMAIL_CHANGE_TEXTS;
  const waiting = {
    newEmail: 'new@example.com',
    requestedAt: '2026-11-26T10:00:00.000Z',
    expiresAt: '2026-11-27T10:00:00.000Z',
  };
  /** The stand-in API's status, as the test changes it; how often it was asked. */
  function statusServer(initial: EmailChangeStatus) {
    const server = { current: initial, asked: 0 };
    apiServer.use(
      http.get(`${TEST_API}/me/email-change`, () => {
        server.asked++;
        return HttpResponse.json(envelope(server.current));
      }),
    );
    return server;
  }
  const editButton = () => screen.getByRole('button', { name: T.edit });
  async function openDialog() {
    fireEvent.click(editButton());
    const dialog = await screen.findByRole('dialog', { name: T.title });
    const newEmail = within(dialog).getByLabelText(T.newEmail, { exact: false }) as HTMLInputElement;
    const password = within(dialog).getByLabelText(T.password, { exact: false }) as HTMLInputElement;
    const fill = (address: string, current: string) => {
      fireEvent.change(newEmail, { target: { value: address } });
      fireEvent.change(password, { target: { value: current } });
    };
    const send = () => within(dialog).getByRole('button', { name: /^(Send link|Sending\.\.\.)$/ }) as HTMLButtonElement;
    return { dialog, newEmail, password, fill, send };
  }
  /** The texts an input is described by (its hint and its validation message). */
  const description = (input: HTMLElement) =>
    (input.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ');

  it('offers the edit icon when the email changes in the app, a link to the provider page with a URL, and nothing with null', async () => {
    const server = statusServer(emailStatus());
    const first = render();
    expect(editButton().getAttribute('aria-haspopup')).toBe('dialog');
    expect(screen.queryByRole('link', { name: T.edit })).toBeNull();
    await waitFor(() => expect(server.asked).toBe(1));
    first.unmount();

    const cognito = render({ emailChange: 'https://id.example.com/change-email?client_id=ums-web' });
    expect((await screen.findByRole('link', { name: T.edit })).getAttribute('href')).toBe(
      'https://id.example.com/change-email?client_id=ums-web',
    );
    expect(screen.queryByRole('button', { name: T.edit })).toBeNull();
    cognito.unmount();

    render({ emailChange: null });
    expect(screen.getByText('member@example.com')).toBeTruthy();
    expect(screen.queryByRole('button', { name: T.edit })).toBeNull();
    expect(screen.queryByRole('link', { name: T.edit })).toBeNull();
    // Only the app's own way of changing it asks the API for the status.
    expect(server.asked).toBe(1);
  });

  it('asks for the new address and the current password in a titled dialog with labelled fields', async () => {
    statusServer(emailStatus());
    render();
    const { dialog, newEmail, password, send } = await openDialog();
    expect(document.getElementById(dialog.getAttribute('aria-describedby') ?? '')?.textContent).toBe(T.intro);
    expect([newEmail.type, newEmail.autocomplete]).toEqual(['email', 'email']);
    expect([password.type, password.autocomplete]).toEqual(['password', 'current-password']);
    expect(within(dialog).queryByRole('textbox', { name: /Authentication code/ })).toBeNull();
    expect(send().textContent).toBe(T.send);
    expect(within(dialog).getByRole('button', { name: T.cancel })).toBeTruthy();
  });

  it('sends exactly the new address and password, then closes the dialog, returns the focus to the icon and shows the change waiting', async () => {
    const server = statusServer(emailStatus());
    const sent: unknown[] = [];
    // The stand-in API holds its answer until the test has seen the dialog waiting for it.
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    apiServer.use(
      http.post(`${TEST_API}/me/email-change`, async ({ request }) => {
        sent.push(await request.json());
        await answered;
        server.current = emailStatus({ pending: waiting });
        return HttpResponse.json(envelope(server.current, T.requested), { status: 202 });
      }),
    );
    render();
    const { dialog, fill, send } = await openDialog();
    expect(send().disabled).toBe(true);
    fill(' new@example.com ', 'Current-Pass-1!');
    fireEvent.click(send());
    await waitFor(() => expect(send().textContent).toBe(T.sending));
    expect(send().getAttribute('aria-disabled')).toBe('true');
    answer();
    await waitFor(() => expect(screen.queryByRole('dialog', { hidden: true })).toBeNull());
    expect(sent).toEqual([{ newEmail: 'new@example.com', password: 'Current-Pass-1!' }]);
    expect(document.activeElement).toBe(editButton());
    expect(await screen.findByText(T.waiting('new@example.com'))).toBeTruthy();
    expect(screen.getByText(T.waitingDetail(EMAIL_CHANGE_LINK_HOURS))).toBeTruthy();
    // The address is unchanged until the link is opened.
    expect(screen.getByText('member@example.com')).toBeTruthy();
    expect(dialog.isConnected).toBe(false);
  });

  it('sends the authentication code with the change for an account with a second factor', async () => {
    statusServer(emailStatus());
    const sent: unknown[] = [];
    apiServer.use(
      http.get(`${TEST_API}/security/factors`, () =>
        HttpResponse.json(
          envelope([{ passkeys: [], totp: { enabled: true, createdAt: null }, recoveryCodes: { remaining: 10 } }]),
        ),
      ),
      http.post(`${TEST_API}/me/email-change`, async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json(envelope(emailStatus({ pending: waiting }), T.requested), { status: 202 });
      }),
    );
    render();
    const { dialog, fill, send } = await openDialog();
    const code = await within(dialog).findByRole('textbox', { name: /Authentication code/ });
    fill('new@example.com', 'Current-Pass-1!');
    expect(send().disabled).toBe(true);
    fireEvent.change(code, { target: { value: ' 123456 ' } });
    fireEvent.click(send());
    expect(await screen.findByText(T.waiting('new@example.com'))).toBeTruthy();
    expect(sent).toEqual([{ newEmail: 'new@example.com', password: 'Current-Pass-1!', code: '123456' }]);
  });

  it.each([
    ['without an @', 'member.example.com', T.badAddress],
    ['without a domain', 'new@example', T.badAddress],
    ['with a space', 'new member@example.com', T.badAddress],
    ['over 254 characters', `${'a'.repeat(243)}@example.com`, T.tooLong],
  ])('refuses an address %s in the browser in the words of the API, sending nothing', async (_, address, message) => {
    statusServer(emailStatus());
    const posted = vi.fn();
    apiServer.use(http.post(`${TEST_API}/me/email-change`, posted));
    render();
    const { newEmail, fill, send } = await openDialog();
    fill(address, 'Current-Pass-1!');
    fireEvent.click(send());
    expect(description(newEmail)).toContain(message);
    expect(newEmail.getAttribute('aria-invalid')).toBe('true');
    expect(posted).not.toHaveBeenCalled();
  });

  it('keeps "Send link" disabled while the address is only spaces', async () => {
    statusServer(emailStatus());
    render();
    const { fill, send } = await openDialog();
    fill('   ', 'Current-Pass-1!');
    expect(send().disabled).toBe(true);
  });

  it.each([
    ['newEmail', T.sameAddress],
    ['password', T.wrongPassword],
  ] as const)("puts the server's refusal of %s under its field, not in a banner", async (field, message) => {
    statusServer(emailStatus());
    apiServer.use(
      http.post(`${TEST_API}/me/email-change`, () =>
        HttpResponse.json({ ...failure(message), errors: { [field]: [message] } }, { status: 400 }),
      ),
    );
    render();
    const opened = await openDialog();
    opened.fill('member@example.com', 'Wrong-Pass-1!');
    fireEvent.click(opened.send());
    const input = opened[field];
    await waitFor(() => expect(description(input)).toContain(message));
    expect(input.getAttribute('aria-invalid')).toBe('true');
    // The one alert is the field's message: no banner repeats it.
    expect(
      within(opened.dialog)
        .getAllByRole('alert')
        .map((alert) => alert.textContent),
    ).toEqual([message]);
  });

  it('shows a refusal that names no field (too many requests) in the banner', async () => {
    statusServer(emailStatus());
    apiServer.use(
      http.post(`${TEST_API}/me/email-change`, () => HttpResponse.json(failure(T.tooMany), { status: 429 })),
    );
    render();
    const { dialog, fill, send } = await openDialog();
    fill('new@example.com', 'Current-Pass-1!');
    fireEvent.click(send());
    expect((await within(dialog).findByRole('alert')).textContent).toBe(T.tooMany);
  });

  it('Cancel closes the dialog without sending and returns the focus to the icon', async () => {
    statusServer(emailStatus());
    const posted = vi.fn();
    apiServer.use(http.post(`${TEST_API}/me/email-change`, posted));
    render();
    const { dialog, fill } = await openDialog();
    fill('new@example.com', 'Current-Pass-1!');
    fireEvent.click(within(dialog).getByRole('button', { name: T.cancel }));
    await waitFor(() => expect(screen.queryByRole('dialog', { hidden: true })).toBeNull());
    expect(document.activeElement).toBe(editButton());
    expect(posted).not.toHaveBeenCalled();
    // Opened again, the dialog is empty.
    expect((await openDialog()).newEmail.value).toBe('');
  });

  it('marks an address not verified yet with "Not verified"', async () => {
    statusServer(emailStatus({ emailVerified: false }));
    render();
    expect(await screen.findByText(T.unverified)).toBeTruthy();
  });

  it('Resend sends the link again and says "Link sent again"', async () => {
    statusServer(emailStatus({ pending: waiting }));
    const sent: unknown[] = [];
    apiServer.use(
      http.post(`${TEST_API}/me/email-change/resend`, async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json(envelope(emailStatus({ pending: waiting }), T.requested), { status: 202 });
      }),
    );
    render();
    fireEvent.click(await screen.findByRole('button', { name: T.resend }));
    expect((await screen.findByRole('status')).textContent).toBe(T.resent);
    expect(sent).toEqual([{}]);
    expect(screen.getByText(T.waiting('new@example.com'))).toBeTruthy();
  });

  it('"Cancel change" drops the waiting change and returns to the plain row', async () => {
    const server = statusServer(emailStatus({ pending: waiting }));
    let cancelled = 0;
    apiServer.use(
      http.delete(`${TEST_API}/me/email-change`, () => {
        cancelled++;
        server.current = emailStatus();
        return HttpResponse.json(envelope(server.current, T.cancelled));
      }),
    );
    render();
    fireEvent.click(await screen.findByRole('button', { name: T.cancelChange }));
    await waitFor(() => expect(screen.queryByText(T.waiting('new@example.com'))).toBeNull());
    expect(cancelled).toBe(1);
    expect(screen.queryByRole('button', { name: T.resend })).toBeNull();
    expect(screen.queryByRole('button', { name: T.cancelChange })).toBeNull();
    expect((await screen.findByRole('status')).textContent).toBe(T.cancelled);
    expect(screen.getByText('member@example.com')).toBeTruthy();
    expect(document.activeElement).toBe(editButton());
  });

  it('says so when there is no change to send again any more, and shows what the API says now', async () => {
    const server = statusServer(emailStatus({ pending: waiting }));
    apiServer.use(
      http.post(`${TEST_API}/me/email-change/resend`, () => {
        server.current = emailStatus({ pending: { ...waiting, newEmail: 'newer@example.com' } });
        return HttpResponse.json(failure(T.nothingPending), { status: 409 });
      }),
    );
    render();
    fireEvent.click(await screen.findByRole('button', { name: T.resend }));
    expect((await screen.findByRole('alert')).textContent).toBe(T.nothingPending);
    expect(await screen.findByText(T.waiting('newer@example.com'))).toBeTruthy();
  });

  it('asks again every 5 s while a change asked for minutes ago waits, and stops once none does', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = statusServer(emailStatus({ pending: { ...waiting, requestedAt: new Date().toISOString() } }));
    render();
    expect(await screen.findByText(T.waiting('new@example.com'))).toBeTruthy();
    expect(server.asked).toBe(1);
    await act(async () => vi.advanceTimersByTimeAsync(5000));
    await waitFor(() => expect(server.asked).toBe(2));
    server.current = emailStatus();
    await act(async () => vi.advanceTimersByTimeAsync(5000));
    await waitFor(() => expect(screen.queryByText(T.waiting('new@example.com'))).toBeNull());
    const asked = server.asked;
    await act(async () => vi.advanceTimersByTimeAsync(15000));
    expect(server.asked).toBe(asked);
  });

  it('asks once a minute while a change asked for over 10 minutes ago waits', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const requestedAt = new Date(Date.now() - 11 * 60_000).toISOString();
    const server = statusServer(emailStatus({ pending: { ...waiting, requestedAt } }));
    render();
    expect(await screen.findByText(T.waiting('new@example.com'))).toBeTruthy();
    expect(server.asked).toBe(1);
    await act(async () => vi.advanceTimersByTimeAsync(30_000));
    expect(server.asked).toBe(1);
    await act(async () => vi.advanceTimersByTimeAsync(30_000));
    await waitFor(() => expect(server.asked).toBe(2));
  });

  it('on coming back to the tab after confirming elsewhere, renews the tokens once and says the new address', async () => {
    const server = statusServer(emailStatus({ pending: waiting }));
    const auth = fakeAuth({ user: signedInUser([], { email: 'member@example.com' }) });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    renderWithProviders(<LoginDetailsSection />, { auth, queryClient });
    // The first paint shows the ID token's address, before the status arrives.
    expect(screen.getByText('member@example.com')).toBeTruthy();
    expect(await screen.findByText(T.waiting('new@example.com'))).toBeTruthy();

    // The link was opened in another browser; the member comes back to this tab.
    server.current = emailStatus({ email: 'new@example.com' });
    // The browser's event: at the document, bubbling to the window (where the query client listens).
    act(() => document.dispatchEvent(new Event('visibilitychange', { bubbles: true })));
    expect((await screen.findByRole('status')).textContent).toBe(T.changedHere('new@example.com'));
    expect(screen.getByText('new@example.com')).toBeTruthy();
    expect(screen.queryByText(T.waiting('new@example.com'))).toBeNull();
    expect(auth.signinSilent).toHaveBeenCalledTimes(1);

    // After the renewal everything that shows the address is read again (the status too: a third time).
    await waitFor(() => expect(server.asked).toBe(3));
    // Asked again (the double's renewal leaves the old ID token), it does not renew again.
    await act(() => queryClient.refetchQueries());
    await act(() => queryClient.refetchQueries());
    expect(server.asked).toBe(5);
    expect(auth.signinSilent).toHaveBeenCalledTimes(1);
  });
});
