import { act, fireEvent, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi, beforeEach } from 'vitest';
import { apiServer, envelope, failure, useApiServer, withoutSecondFactor } from '../../test/api-server.js';
import { fakeAuth, renderWithProviders, signedInUser, TEST_API, testConfig } from '../../test/render.js';
import { LoginDetailsSection } from './components/login-details-section.js';
import { passwordChangeError } from './messages.js';
import { SECOND_FACTOR_UI_TEXTS } from '@ums/contracts/security';
import { ApiError } from '../../lib/api-client.js';

// Cognito's default set of special characters, written out (SPEC section 8 does not list them).
const SPECIAL_RULE = 'Password must contain at least one special character (^$*.[]{}()?"!@#%&/\\,><\':;|_~`=+-)';

const render = (config: Partial<typeof testConfig> = {}) =>
  renderWithProviders(<LoginDetailsSection />, {
    auth: fakeAuth({ user: signedInUser([], { email: 'member@example.com' }) }),
    config: { ...testConfig, ...config },
  });

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
  beforeEach(() => apiServer.use(withoutSecondFactor));

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
