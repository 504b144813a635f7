import type { UserDetails } from '@ums/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi, beforeEach } from 'vitest';
import { apiServer, envelope, failure, useApiServer, withoutSecondFactor } from '../../test/api-server.js';
import { recordDownloads } from '../../test/downloads.js';
import { fakeAuth, LocationProbe, renderWithProviders, signedInUser, TEST_API, testConfig } from '../../test/render.js';
import { PersonalInformationSection } from './components/personal-information-section.js';
// The section loads these on first use; loaded here first, a busy machine's first transform of the date picker
// cannot outlast a test's wait for the dialog.
import './components/close-account-dialog.js';
import './components/edit-personal-information-dialog.js';
import './components/your-data.js';
import { displayRows } from './display-rows.js';
import { toDraft, toInput } from './form-state.js';

const morgan: UserDetails = {
  firstName: 'Morgan',
  lastName: 'Lee',
  email: 'member@example.com',
  biologicalSex: 'Female',
  birthdate: '1988-07-14',
  phoneNumber: '(555) 123-4567',
  streetAddress: '1 Main St',
  city: 'Austin',
  countryRegion: 'United States',
  stateProvince: 'TX',
  postalCode: '78701',
};
const empty: UserDetails = {
  firstName: null,
  lastName: null,
  email: 'member@example.com',
  biologicalSex: null,
  birthdate: null,
  phoneNumber: null,
  streetAddress: null,
  city: null,
  countryRegion: null,
  stateProvince: null,
  postalCode: null,
};

describe('personal information rows', () => {
  it('show the name, the long US birthdate and the joined address', () => {
    expect(displayRows(morgan).map((r) => r.value)).toEqual([
      'Morgan Lee',
      'member@example.com',
      'Female',
      'July 14, 1988',
      '(555) 123-4567',
      '1 Main St, Austin, TX, 78701',
    ]);
  });

  it('say "Not provided" for empty values and "Invalid date" for a bad birthdate; a time part is fine', () => {
    expect(displayRows(empty).map((r) => r.value)).toEqual([
      'Not provided',
      'member@example.com',
      'Not provided',
      'Not provided',
      'Not provided',
      'Not provided',
    ]);
    expect(displayRows({ ...empty, birthdate: '1990-02-31' })[3]!.value).toBe('Invalid date');
    expect(displayRows({ ...empty, birthdate: '1990-04-23T00:00:00Z' })[3]!.value).toBe('April 23, 1990');
    expect(displayRows({ ...empty, city: 'Austin', postalCode: '78701' })[5]!.value).toBe('Austin, 78701');
  });
});

describe('the saved form', () => {
  it('sends empty optional fields as absent, names and email as strings', () => {
    const draft = { ...toDraft(empty), city: '  ', phoneNumber: '555' };
    expect(toInput(draft, 'member@example.com')).toEqual({
      firstName: '',
      lastName: '',
      email: 'member@example.com',
      phoneNumber: '555',
    });
    expect(toInput(toDraft(morgan), null)).toEqual({ ...morgan, email: '' });
  });

  it('drops a birthdate time part in the draft', () => {
    expect(toDraft({ ...morgan, birthdate: '1988-07-14T10:00:00' }).birthdate).toBe('1988-07-14');
  });
});

describe('the Personal Information section', () => {
  useApiServer();
  beforeEach(() => apiServer.use(withoutSecondFactor));
  const render = () =>
    renderWithProviders(<PersonalInformationSection />, { auth: fakeAuth({ user: signedInUser() }) });

  it('shows the spinner text, then the rows', async () => {
    apiServer.use(http.get(`${TEST_API}/userdetails/`, () => HttpResponse.json(envelope(morgan))));
    render();
    expect(screen.getByText('Loading personal information...')).toBeTruthy();
    expect(await screen.findByText('Morgan Lee')).toBeTruthy();
    expect(screen.getByText('July 14, 1988')).toBeTruthy();
  });

  it('shows a load failure in a banner: the fallback for server faults', async () => {
    apiServer.use(http.get(`${TEST_API}/userdetails/`, () => HttpResponse.json(failure('boom'), { status: 500 })));
    render();
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to load user details');
  });

  it('Cancel discards the draft', async () => {
    apiServer.use(http.get(`${TEST_API}/userdetails/`, () => HttpResponse.json(envelope(morgan))));
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Full Name' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Personal Information' });
    expect(within(dialog).getByPlaceholderText('Select birthdate')).toBeTruthy();
    expect(within(dialog).getByPlaceholderText('(000) 000-0000')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('First Name'), { target: { value: 'Somebody' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByText('Morgan Lee')).toBeTruthy();
    expect(screen.queryByText('Somebody Lee')).toBeNull();
  });

  it('Save sends the draft, says "Saving..." and shows the saved values', async () => {
    let sent: unknown;
    // The stand-in API holds its answer until the test has seen the dialog saving.
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    apiServer.use(
      http.get(`${TEST_API}/userdetails/`, () => HttpResponse.json(envelope(morgan))),
      http.post(`${TEST_API}/userdetails/internal`, async ({ request }) => {
        sent = await request.json();
        await answered;
        return HttpResponse.json(envelope({ ...morgan, firstName: 'Robin', city: null }));
      }),
    );
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Address' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Personal Information' });
    expect((within(dialog).getByLabelText('First Name') as HTMLInputElement).value).toBe('Morgan');
    fireEvent.change(within(dialog).getByLabelText('First Name'), { target: { value: 'Robin' } });
    fireEvent.change(within(dialog).getByLabelText('City'), { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await within(dialog).findByRole('button', { name: 'Saving...' })).toBeTruthy();
    answer();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByText('Robin Lee')).toBeTruthy();
    expect(screen.getByText('1 Main St, TX, 78701')).toBeTruthy();
    expect(sent).toEqual({ ...morgan, firstName: 'Robin', city: undefined });
    expect(sent).not.toHaveProperty('city');
  });

  it("keeps the dialog open with the API's message when a save is refused", async () => {
    apiServer.use(
      http.get(`${TEST_API}/userdetails/`, () => HttpResponse.json(envelope(morgan))),
      http.post(`${TEST_API}/userdetails/internal`, () =>
        HttpResponse.json(failure('Invalid request. phoneNumber: Phone number is too long'), { status: 400 }),
      ),
    );
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Phone Number' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Personal Information' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Invalid request. phoneNumber: Phone number is too long',
    );
  });

  it("shows the API's field error under its field and the rest in the banner", async () => {
    apiServer.use(
      http.get(`${TEST_API}/userdetails/`, () => HttpResponse.json(envelope(morgan))),
      http.post(`${TEST_API}/userdetails/internal`, () =>
        HttpResponse.json(
          {
            ...failure('Invalid request. phoneNumber: Phone number must be at most 40 characters'),
            errors: { phoneNumber: ['Phone number must be at most 40 characters'] },
          },
          { status: 400 },
        ),
      ),
    );
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Phone Number' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Personal Information' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(
      await within(dialog).findByRole('textbox', {
        name: 'Phone Number',
        description: 'Phone number must be at most 40 characters',
      }),
    ).toBeTruthy();
    expect(
      within(dialog)
        .getAllByRole('alert')
        .map((alert) => alert.textContent),
    ).toContain('Failed to save user details');
  });

  it('says "Failed to save user details" when the server fails', async () => {
    apiServer.use(
      http.get(`${TEST_API}/userdetails/`, () => HttpResponse.json(envelope(morgan))),
      http.post(`${TEST_API}/userdetails/internal`, () => HttpResponse.text('oops', { status: 502 })),
    );
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Email' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Personal Information' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Failed to save user details');
  });

  it('shows the date picker messages for text that is not a date and for a date out of bounds', async () => {
    apiServer.use(http.get(`${TEST_API}/userdetails/`, () => HttpResponse.json(envelope(morgan))));
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Birthdate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Personal Information' });
    const input = within(dialog).getByLabelText('Birthdate');
    fireEvent.change(input, { target: { value: 'someday' } });
    fireEvent.blur(input);
    expect(await within(dialog).findByText('Enter a date such as 4/23/1990.')).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Save Changes' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(input, { target: { value: '1/1/1850' } });
    fireEvent.blur(input);
    expect(await within(dialog).findByText('Enter a date between 1/1/1900 and today.')).toBeTruthy();
    fireEvent.change(input, { target: { value: '4/23/1990' } });
    fireEvent.blur(input);
    await waitFor(() => expect(within(dialog).queryByText('Enter a date between 1/1/1900 and today.')).toBeNull());
  });
});

describe('your data', () => {
  useApiServer();
  beforeEach(() => apiServer.use(withoutSecondFactor));
  afterEach(() => vi.restoreAllMocks());

  const section = () =>
    renderWithProviders(
      <>
        <PersonalInformationSection />
        <LocationProbe />
      </>,
      { auth: fakeAuth({ user: signedInUser() }) },
    );

  it('"Download my data" saves the export the server answers as my-data-DAY.json', async () => {
    const saved = recordDownloads();
    apiServer.use(
      http.get(`${TEST_API}/userdetails/`, () => HttpResponse.json(envelope(morgan))),
      http.get(`${TEST_API}/me/export`, () => HttpResponse.json({ subject: 'member-1', orders: [] })),
    );
    section();
    fireEvent.click(await screen.findByRole('button', { name: 'Download my data' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]!.name).toBe(`my-data-${new Date().toISOString().slice(0, 10)}.json`);
    expect(JSON.parse(await saved[0]!.blob.text())).toEqual({ subject: 'member-1', orders: [] });
  });

  it('"Download my data" asked for when a recent sign-in is needed comes once the member is back from signing in', async () => {
    const saved = recordDownloads();
    let signedInAgain = false;
    apiServer.use(
      http.get(`${TEST_API}/userdetails/`, () => HttpResponse.json(envelope(morgan))),
      http.get(`${TEST_API}/me/export`, () =>
        signedInAgain
          ? HttpResponse.json({ subject: 'member-1', orders: [] })
          : HttpResponse.json(failure('For your security, sign in again to do this.'), {
              status: 401,
              headers: { 'WWW-Authenticate': 'Bearer error="insufficient_user_authentication", max_age=300' },
            }),
      ),
    );
    const auth = fakeAuth({ user: signedInUser() });
    const first = renderWithProviders(<PersonalInformationSection />, { auth });
    fireEvent.click(await screen.findByRole('button', { name: 'Download my data' }));
    await waitFor(() => expect(auth.signinRedirect).toHaveBeenCalledWith({ max_age: 300 }));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Download my data' })).toHaveProperty('disabled', false),
    );
    // The tab is leaving to sign in: no failure is shown.
    expect(screen.queryByRole('alert')).toBeNull();
    first.unmount();

    signedInAgain = true;
    section();
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]!.name).toBe(`my-data-${new Date().toISOString().slice(0, 10)}.json`);
    expect(Object.keys(sessionStorage).filter((key) => key.startsWith('ums.step-up-draft.'))).toEqual([]);
  });

  it('"Download my data" starts again by itself only once: a provider that signs in without asking sends no loop', async () => {
    let asked = 0;
    apiServer.use(
      http.get(`${TEST_API}/userdetails/`, () => HttpResponse.json(envelope(morgan))),
      http.get(`${TEST_API}/me/export`, () => {
        asked++;
        return HttpResponse.json(failure('For your security, sign in again to do this.'), {
          status: 401,
          headers: { 'WWW-Authenticate': 'Bearer error="insufficient_user_authentication", max_age=300' },
        });
      }),
    );
    const openPage = async () => {
      const auth = fakeAuth({ user: signedInUser() });
      const view = renderWithProviders(<PersonalInformationSection />, { auth });
      await screen.findByRole('button', { name: 'Download my data' });
      return { auth, view };
    };
    const first = await openPage();
    fireEvent.click(screen.getByRole('button', { name: 'Download my data' }));
    await waitFor(() => expect(first.auth.signinRedirect).toHaveBeenCalledTimes(1));
    first.view.unmount();
    // Back, still too old a sign-in: the resumed export is refused and the tab goes to sign in once more.
    const second = await openPage();
    await waitFor(() => expect(second.auth.signinRedirect).toHaveBeenCalledTimes(1));
    second.view.unmount();
    // Back again: nothing starts by itself; the button is there.
    const third = await openPage();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Download my data' })).toHaveProperty('disabled', false),
    );
    expect(third.auth.signinRedirect).not.toHaveBeenCalled();
    expect(asked).toBe(2);
  });

  it('"Close my account" explains the grace period, refuses a wrong password in its words, and signs out once scheduled', async () => {
    const asked: unknown[] = [];
    apiServer.use(
      http.get(`${TEST_API}/userdetails/`, () => HttpResponse.json(envelope(morgan))),
      http.post(`${TEST_API}/me/deletion`, async ({ request }) => {
        const body = (await request.json()) as { password: string };
        asked.push(body);
        return body.password === 'Right-Password-1!'
          ? HttpResponse.json(envelope({ deleteAfter: '2026-12-23T08:00:00.000Z' }, 'Account deletion scheduled'))
          : HttpResponse.json(failure('Current password is incorrect.'), { status: 400 });
      }),
    );
    section();
    fireEvent.click(await screen.findByRole('button', { name: 'Close my account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Close your account?' });
    expect(dialog.textContent).toContain(
      'Your account and personal information will be deleted in 30 days. You will be signed out everywhere now.',
    );
    const confirm = within(dialog).getByRole('button', { name: 'Close account' });
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    const password = within(dialog).getByLabelText(/Current password/);
    fireEvent.change(password, { target: { value: 'Wrong-Password-1!' } });
    fireEvent.click(confirm);
    expect(await within(dialog).findByText('Current password is incorrect.')).toBeTruthy();
    // The probe is outside the modal dialog, which hides the rest of the page from the accessibility tree.
    expect(screen.getByLabelText('location').textContent).toBe('/');

    fireEvent.change(password, { target: { value: 'Right-Password-1!' } });
    fireEvent.click(confirm);
    await waitFor(() =>
      expect(screen.getByLabelText('location').textContent).toBe('/logout-complete?source=ums-client'),
    );
    expect(asked).toEqual([{ password: 'Wrong-Password-1!' }, { password: 'Right-Password-1!' }]);
  });

  it('"Close my account" asks an account with a second factor for its code too, and sends it', async () => {
    const asked: unknown[] = [];
    apiServer.use(
      http.get(`${TEST_API}/userdetails/`, () => HttpResponse.json(envelope(morgan))),
      http.get(`${TEST_API}/security/factors`, () =>
        HttpResponse.json(
          envelope([{ passkeys: [], totp: { enabled: true, createdAt: null }, recoveryCodes: { remaining: 9 } }]),
        ),
      ),
      http.post(`${TEST_API}/me/deletion`, async ({ request }) => {
        asked.push(await request.json());
        return HttpResponse.json(envelope({ deleteAfter: '2026-12-23T08:00:00.000Z' }, 'Account deletion scheduled'));
      }),
    );
    section();
    fireEvent.click(await screen.findByRole('button', { name: 'Close my account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Close your account?' });
    const confirm = within(dialog).getByRole('button', { name: 'Close account' }) as HTMLButtonElement;
    fireEvent.change(within(dialog).getByLabelText(/Current password/), { target: { value: 'Right-Password-1!' } });
    const code = await within(dialog).findByRole('textbox', { name: /Authentication code/ });
    expect(confirm.disabled).toBe(true);
    fireEvent.change(code, { target: { value: 'ABCDE-FGHIJ' } });
    fireEvent.click(confirm);
    await waitFor(() =>
      expect(screen.getByLabelText('location').textContent).toBe('/logout-complete?source=ums-client'),
    );
    expect(asked).toEqual([{ password: 'Right-Password-1!', code: 'ABCDE-FGHIJ' }]);
  });

  it('"Close my account" shows the last administrator why the server refused, and stays on the page', async () => {
    apiServer.use(
      http.get(`${TEST_API}/userdetails/`, () => HttpResponse.json(envelope(morgan))),
      http.post(`${TEST_API}/me/deletion`, () =>
        HttpResponse.json(
          failure(
            'You are the last administrator: give the Admin group to someone else before you close your account.',
          ),
          { status: 409 },
        ),
      ),
    );
    section();
    fireEvent.click(await screen.findByRole('button', { name: 'Close my account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Close your account?' });
    fireEvent.change(within(dialog).getByLabelText(/Current password/), { target: { value: 'Right-Password-1!' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close account' }));
    expect(
      await within(dialog).findByText(
        'You are the last administrator: give the Admin group to someone else before you close your account.',
      ),
    ).toBeTruthy();
    expect(screen.getByLabelText('location').textContent).toBe('/');
  });

  it('offers no "Close my account" when another identity provider keeps the accounts', async () => {
    apiServer.use(http.get(`${TEST_API}/userdetails/`, () => HttpResponse.json(envelope(morgan))));
    renderWithProviders(<PersonalInformationSection />, {
      auth: fakeAuth({ user: signedInUser() }),
      config: { ...testConfig, deletionGraceDays: null },
    });
    await screen.findByRole('button', { name: 'Download my data' });
    expect(screen.queryByRole('button', { name: 'Close my account' })).toBeNull();
  });
});
