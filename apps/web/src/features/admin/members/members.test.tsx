import type { AdminMember, AdminMemberDetails } from '@ums/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { apiServer, envelope, failure, useApiServer } from '../../../test/api-server.js';
import { createQueryClient } from '../../../lib/query-client.js';
import { fakeAuth, renderWithProviders, signedInUser, TEST_API } from '../../../test/render.js';
import { MemberPage } from './member-page.js';
import { MembersPage } from './members-page.js';

const ID = '7d0f4c1e-2b9a-4c51-9d4e-1f2a3b4c5d6e';
const morgan: AdminMember = {
  id: ID,
  email: 'morgan@example.com',
  firstName: 'Morgan',
  lastName: 'Lee',
  groups: [],
  createdAt: '2026-01-05T10:00:00.000Z',
  emailVerified: true,
  deletionPendingUntil: null,
};
const leaving: AdminMember = {
  ...morgan,
  id: '11111111-2222-4333-8444-555555555555',
  email: 'leaving@example.com',
  firstName: 'Lee',
  lastName: 'Vining',
  deletionPendingUntil: '2026-12-24T10:00:00.000Z',
};
const details: AdminMemberDetails = {
  member: morgan,
  personalInformation: {
    firstName: 'Morgan',
    lastName: 'Lee',
    email: 'morgan@example.com',
    biologicalSex: null,
    birthdate: null,
    phoneNumber: null,
    streetAddress: null,
    city: 'Portland',
    countryRegion: null,
    stateProvince: null,
    postalCode: null,
    createdAt: '2026-11-01T09:00:00Z',
    updatedAt: '2026-11-01T09:00:00Z',
  },
  orders: [],
  ordersPage: { nextCursor: null, total: 0 },
  subscriptions: [],
  sessions: [
    {
      id: 'session-1',
      current: false,
      browser: 'Firefox 140',
      os: 'Windows 11',
      ipAddress: '203.0.113.9',
      createdAt: '2026-11-20T09:00:00Z',
      lastActiveAt: '2026-11-20T09:30:00Z',
    },
  ],
  securityActivity: [
    { at: '2026-11-20T09:00:00Z', event: 'sign-in', browser: 'Firefox 140', os: 'Windows 11', ipAddress: null },
  ],
  securityActivityPage: { nextCursor: null, total: 1 },
  signInMethods: { authenticatorApp: true, passkeys: 2, recoveryCodes: 7 },
  pendingEmailChange: null,
};
const firstPage = {
  ...envelope([
    {
      orderId: 7,
      date: '2026-03-07T15:00:00Z',
      status: 'Paid',
      totalAmount: 118,
      productNames: ['Lipid Panel', 'Thyroid Panel'],
    },
  ]),
  page: { nextCursor: 'next-1', total: 2 },
};
const secondPage = {
  ...envelope([{ orderId: 3, date: '2025-01-07T15:00:00Z', status: 'Paid', totalAmount: 40, productNames: ['A1c'] }]),
  page: { nextCursor: null, total: 2 },
};
/** The activity after the page the details carry: an attack's failed attempts. */
const olderActivity = {
  ...envelope([
    {
      at: '2026-11-19T23:00:00Z',
      event: 'sign-in-failed',
      browser: 'Chrome 142',
      os: 'Linux',
      ipAddress: '198.51.100.7',
    },
  ]),
  page: { nextCursor: null, total: 2 },
};
const admin = () => fakeAuth({ user: signedInUser(['Admin']) });

describe('the member directory', () => {
  useApiServer();

  it('lists members with their groups and standing, a closed account showing the day it goes', async () => {
    const asked: string[] = [];
    apiServer.use(
      http.get(`${TEST_API}/admin/members`, ({ request }) => {
        asked.push(new URL(request.url).search);
        return HttpResponse.json({ ...envelope([morgan, leaving]), page: { nextCursor: null, total: 2 } });
      }),
    );
    renderWithProviders(<MembersPage />, { auth: admin(), path: '/admin/members?q=lee' });
    const table = await screen.findByRole('table', { name: 'Members' });
    expect(asked).toEqual(['?limit=25&q=lee']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByRole('link', { name: 'morgan@example.com' }).getAttribute('href')).toBe(
      `/admin/members/${ID}`,
    );
    expect(rows[0]!.textContent).toContain('Active');
    expect(rows[1]!.textContent).toContain('Deletion pending: Dec 24, 2026');
  });

  it('says "of 1000+" when a search matched more members than the server counts, and the number once all are loaded', async () => {
    const third = { ...morgan, id: '22222222-3333-4444-8555-666666666666', email: 'third@example.com' };
    apiServer.use(
      http.get(`${TEST_API}/admin/members`, ({ request }) =>
        HttpResponse.json(
          new URL(request.url).searchParams.get('cursor')
            ? { ...envelope([third]), page: { nextCursor: null, total: 1000, totalAtLeast: true } }
            : { ...envelope([morgan, leaving]), page: { nextCursor: 'next', total: 1000, totalAtLeast: true } },
        ),
      ),
    );
    renderWithProviders(<MembersPage />, { auth: admin(), path: '/admin/members?q=e' });
    expect(await screen.findByText('Showing 2 of 1000+')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Showing 3 of 3')).toBeTruthy();
  });

  it('marks an address the member has not verified with "Not verified" in the directory', async () => {
    apiServer.use(
      http.get(`${TEST_API}/admin/members`, () =>
        HttpResponse.json({
          ...envelope([morgan, { ...leaving, emailVerified: false }]),
          page: { nextCursor: null, total: 2 },
        }),
      ),
    );
    renderWithProviders(<MembersPage />, { auth: admin(), path: '/admin/members' });
    const rows = within(await screen.findByRole('table', { name: 'Members' }))
      .getAllByRole('row')
      .slice(1);
    const emailCell = (row: HTMLElement) => within(row).getAllByRole('cell')[0]!.textContent;
    expect(emailCell(rows[0]!)).toBe('morgan@example.com');
    expect(emailCell(rows[1]!)).toBe('leaving@example.comNot verified');
  });

  it("shows on a member's page an unverified address and the change of address waiting for its link", async () => {
    // 2:05 PM on Nov 24, 2026 wherever the test runs.
    const expiresAt = new Date(2026, 10, 24, 14, 5).toISOString();
    apiServer.use(
      http.get(`${TEST_API}/admin/members/${ID}`, () =>
        HttpResponse.json(
          envelope({
            ...details,
            member: { ...morgan, emailVerified: false },
            pendingEmailChange: { newEmail: 'morgan.lee@example.org', requestedAt: '2026-11-23T14:05:00Z', expiresAt },
          }),
        ),
      ),
    );
    renderWithProviders(
      <Routes>
        <Route path="/admin/members/:memberId" element={<MemberPage />} />
      </Routes>,
      { auth: admin(), path: `/admin/members/${ID}` },
    );
    expect(await screen.findByRole('heading', { name: 'Morgan Lee' })).toBeTruthy();
    expect(screen.getByText('Not verified')).toBeTruthy();
    expect(
      screen.getByText('Email change pending: morgan.lee@example.org, link valid until Nov 24, 2026, 2:05 PM'),
    ).toBeTruthy();
  });

  it('shows neither on the page of a member with a verified address and no change waiting', async () => {
    apiServer.use(http.get(`${TEST_API}/admin/members/${ID}`, () => HttpResponse.json(envelope(details))));
    renderWithProviders(
      <Routes>
        <Route path="/admin/members/:memberId" element={<MemberPage />} />
      </Routes>,
      { auth: admin(), path: `/admin/members/${ID}` },
    );
    expect(await screen.findByRole('heading', { name: 'Morgan Lee' })).toBeTruthy();
    expect(screen.queryByText('Not verified')).toBeNull();
    expect(screen.queryByText(/Email change pending/)).toBeNull();
  });

  it('opens a member on tabs: details read-only, orders and activity a page at a time, sessions; ends their sessions after asking', async () => {
    let ended = 0;
    const orderPages: string[] = [];
    const activityPages: string[] = [];
    apiServer.use(
      // The details carry the newest page of orders and of activity, as the API answers them.
      http.get(`${TEST_API}/admin/members/${ID}`, () =>
        HttpResponse.json(
          envelope({
            ...details,
            orders: firstPage.data,
            ordersPage: firstPage.page,
            securityActivityPage: { nextCursor: 'activity-2', total: 2 },
          }),
        ),
      ),
      http.get(`${TEST_API}/admin/members/${ID}/activity`, ({ request }) => {
        activityPages.push(new URL(request.url).search);
        return HttpResponse.json(olderActivity);
      }),
      http.get(`${TEST_API}/admin/members/${ID}/orders`, ({ request }) => {
        const search = new URL(request.url).search;
        orderPages.push(search);
        return HttpResponse.json(search.includes('cursor=next-1') ? secondPage : firstPage);
      }),
      http.post(`${TEST_API}/admin/members/${ID}/end-sessions`, () => {
        ended++;
        return HttpResponse.json(envelope([], 'Every session of the member has ended'));
      }),
    );
    renderWithProviders(
      <Routes>
        <Route path="/admin/members/:memberId" element={<MemberPage />} />
      </Routes>,
      // The app's query client: the details' page of orders is as fresh as the details.
      { auth: admin(), path: `/admin/members/${ID}`, queryClient: createQueryClient() },
    );
    expect(await screen.findByRole('heading', { name: 'Morgan Lee' })).toBeTruthy();
    expect(screen.getByText('Portland')).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();

    fireEvent.click(screen.getByRole('tab', { name: 'Orders' }));
    const orders = await screen.findByRole('table', { name: 'Orders' });
    expect(within(orders).getAllByRole('row')[1]!.textContent).toContain('#7Lipid Panel, Thyroid Panel$118.00');
    // The first page came with the details: only the pages after it are asked for.
    expect(orderPages).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(orders).getAllByRole('row')).toHaveLength(3));
    expect(orderPages).toEqual(['?limit=25&cursor=next-1']);
    expect(screen.getByText('Showing 2 of 2')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Sessions' }));
    expect(
      within(await screen.findByRole('table', { name: 'Sessions' })).getByText('Firefox 140 on Windows 11'),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Activity' }));
    const activity = await screen.findByRole('table', { name: 'Activity' });
    expect(within(activity).getByText('Signed in')).toBeTruthy();
    expect(activityPages).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await within(activity).findByText('Failed sign-in attempt')).toBeTruthy();
    expect(within(activity).getByText('198.51.100.7')).toBeTruthy();
    expect(activityPages).toEqual(['?limit=25&cursor=activity-2']);
    expect(screen.getByText('Showing 2 of 2')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'End all sessions' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'End all sessions?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog', { hidden: true })).toBeNull());
    expect(ended).toBe(0);
    fireEvent.click(await screen.findByRole('button', { name: 'End all sessions' }));
    const again = await screen.findByRole('alertdialog', { name: 'End all sessions?' });
    fireEvent.click(within(again).getByRole('button', { name: 'End all sessions' }));
    expect((await screen.findByRole('status')).textContent).toBe('Every session of the member has ended');
    expect(ended).toBe(1);
  });

  it('shows the kinds and counts of sign-in methods, and resets them after asking', async () => {
    let reset = 0;
    apiServer.use(
      http.get(`${TEST_API}/admin/members/${ID}`, () =>
        HttpResponse.json(
          envelope(
            reset ? { ...details, signInMethods: { authenticatorApp: false, passkeys: 0, recoveryCodes: 0 } } : details,
          ),
        ),
      ),
      http.post(`${TEST_API}/admin/members/${ID}/reset-sign-in-methods`, () => {
        reset++;
        return HttpResponse.json(envelope([], "The member's sign-in methods were reset and their sessions ended"));
      }),
    );
    renderWithProviders(
      <Routes>
        <Route path="/admin/members/:memberId" element={<MemberPage />} />
      </Routes>,
      { auth: admin(), path: `/admin/members/${ID}`, queryClient: createQueryClient() },
    );
    fireEvent.click(await screen.findByRole('tab', { name: 'Sign-in methods' }));
    const methods = await screen.findByRole('table', { name: 'Sign-in methods' });
    const rows = within(methods)
      .getAllByRole('row')
      .map((row) => row.textContent);
    expect(rows.slice(1)).toEqual(['Authenticator appOn', 'Passkeys2', 'Recovery codes left7']);

    fireEvent.click(screen.getByRole('button', { name: 'Reset sign-in methods' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Reset sign-in methods?' });
    expect(dialog.textContent).toContain(
      'morgan@example.com loses their authenticator app, passkeys and recovery codes',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset sign-in methods' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      "The member's sign-in methods were reset and their sessions ended",
    );
    expect(reset).toBe(1);
    await waitFor(() =>
      expect(
        within(screen.getByRole('table', { name: 'Sign-in methods' }))
          .getAllByRole('row')
          .map((row) => row.textContent)[1],
      ).toBe('Authenticator appOff'),
    );
  });

  it("shows the server's refusal when an administrator would remove their own Admin group", async () => {
    apiServer.use(
      http.get(`${TEST_API}/admin/members/${ID}`, () =>
        HttpResponse.json(envelope({ ...details, member: { ...morgan, groups: ['Admin'] } })),
      ),
      http.put(`${TEST_API}/admin/members/${ID}/groups`, () =>
        HttpResponse.json(failure('You cannot remove your own Admin group: ask another administrator.'), {
          status: 409,
        }),
      ),
    );
    renderWithProviders(
      <Routes>
        <Route path="/admin/members/:memberId" element={<MemberPage />} />
      </Routes>,
      { auth: admin(), path: `/admin/members/${ID}` },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Remove from Admin' }));
    await waitFor(() =>
      expect(screen.getByText('You cannot remove your own Admin group: ask another administrator.')).toBeTruthy(),
    );
  });

  it('brings the groups an administrator typed back after the step-up sign-in, and saves them with one press', async () => {
    const sent: unknown[] = [];
    let signedInAgain = false;
    apiServer.use(
      http.get(`${TEST_API}/admin/members/${ID}`, () => HttpResponse.json(envelope(details))),
      http.put(`${TEST_API}/admin/members/${ID}/groups`, async ({ request }) => {
        const body = (await request.json()) as { groups: string[] };
        if (body.groups.includes('#billing'))
          return HttpResponse.json(failure('Each group is a name of letters, digits, spaces, _ . or -'), {
            status: 400,
          });
        sent.push(body);
        return signedInAgain
          ? HttpResponse.json({ ...envelope([{ ...morgan, groups: ['Support', 'Billing'] }]), message: 'Groups saved' })
          : HttpResponse.json(failure('For your security, sign in again to do this.'), {
              status: 401,
              headers: { 'WWW-Authenticate': 'Bearer error="insufficient_user_authentication", max_age=300' },
            });
      }),
    );
    const auth = admin();
    const page = renderWithProviders(
      <Routes>
        <Route path="/admin/members/:memberId" element={<MemberPage />} />
      </Routes>,
      { auth, path: `/admin/members/${ID}` },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Change groups' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change groups' });
    const field = within(dialog).getByLabelText('Groups');
    fireEvent.change(field, { target: { value: 'Support, #billing' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    // A refusal of the names is shown in the dialog, which keeps what was typed.
    expect(await within(dialog).findByText('Each group is a name of letters, digits, spaces, _ . or -')).toBeTruthy();
    expect((field as HTMLInputElement).value).toBe('Support, #billing');
    fireEvent.change(field, { target: { value: 'Support, Billing' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(auth.signinRedirect).toHaveBeenCalledWith({ max_age: 300 }));
    // The tab is leaving to sign in: no failure is shown.
    expect(screen.queryByRole('alert', { hidden: true })).toBeNull();
    page.unmount();

    // Back from the provider: the same page opens the dialog again with what was typed.
    signedInAgain = true;
    renderWithProviders(
      <Routes>
        <Route path="/admin/members/:memberId" element={<MemberPage />} />
      </Routes>,
      { auth: admin(), path: `/admin/members/${ID}` },
    );
    const again = await screen.findByRole('dialog', { name: 'Change groups' });
    expect(within(again).getByRole('status').textContent).toBe(
      'You signed in again. Check the groups and press Save to finish.',
    );
    expect((within(again).getByLabelText('Groups') as HTMLInputElement).value).toBe('Support, Billing');
    fireEvent.click(within(again).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { hidden: true })).toBeNull());
    expect((await screen.findByRole('status')).textContent).toBe('Groups saved');
    expect(sent).toEqual([{ groups: ['Support', 'Billing'] }, { groups: ['Support', 'Billing'] }]);
    expect(Object.keys(sessionStorage).filter((key) => key.startsWith('ums.step-up-draft.'))).toEqual([]);
  });

  it('offers "Add to Admin" after the step-up sign-in as the groups it would have saved', async () => {
    apiServer.use(
      http.get(`${TEST_API}/admin/members/${ID}`, () =>
        HttpResponse.json(envelope({ ...details, member: { ...morgan, groups: ['Support'] } })),
      ),
      http.put(`${TEST_API}/admin/members/${ID}/groups`, () =>
        HttpResponse.json(failure('For your security, sign in again to do this.'), {
          status: 401,
          headers: { 'WWW-Authenticate': 'Bearer error="insufficient_user_authentication", max_age=300' },
        }),
      ),
    );
    const auth = admin();
    const page = renderWithProviders(
      <Routes>
        <Route path="/admin/members/:memberId" element={<MemberPage />} />
      </Routes>,
      { auth, path: `/admin/members/${ID}` },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Add to Admin' }));
    await waitFor(() => expect(auth.signinRedirect).toHaveBeenCalledWith({ max_age: 300 }));
    page.unmount();

    renderWithProviders(
      <Routes>
        <Route path="/admin/members/:memberId" element={<MemberPage />} />
      </Routes>,
      { auth: admin(), path: `/admin/members/${ID}` },
    );
    const dialog = await screen.findByRole('dialog', { name: 'Change groups' });
    expect((within(dialog).getByLabelText('Groups') as HTMLInputElement).value).toBe('Support, Admin');
  });

  it('ticks a console role to put its group in the groups line, and unticks it to take it out', async () => {
    apiServer.use(
      http.get(`${TEST_API}/admin/members/${ID}`, () =>
        HttpResponse.json(envelope({ ...details, member: { ...morgan, groups: ['Billing'] } })),
      ),
    );
    renderWithProviders(
      <Routes>
        <Route path="/admin/members/:memberId" element={<MemberPage />} />
      </Routes>,
      { auth: admin(), path: `/admin/members/${ID}` },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Change groups' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change groups' });
    const roles = within(dialog).getByRole('group', { name: 'Console roles' });
    const support = within(roles).getByRole('checkbox', {
      name: 'Support: Members: their pages, orders, sessions and sign-in methods',
    });
    expect((support as HTMLInputElement).checked).toBe(false);
    fireEvent.click(support);
    const field = within(dialog).getByLabelText('Groups') as HTMLInputElement;
    expect(field.value).toBe('Billing, Support');
    fireEvent.change(field, { target: { value: 'Catalog, Billing, Support' } });
    expect((within(roles).getByRole('checkbox', { name: /^Catalog: / }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(within(roles).getByRole('checkbox', { name: /^Support: / }));
    expect(field.value).toBe('Catalog, Billing');
  });

  it('shows Support a member with the actions of their role: sessions and sign-in methods, but not their groups', async () => {
    apiServer.use(http.get(`${TEST_API}/admin/members/${ID}`, () => HttpResponse.json(envelope(details))));
    renderWithProviders(
      <Routes>
        <Route path="/admin/members/:memberId" element={<MemberPage />} />
      </Routes>,
      { auth: fakeAuth({ user: signedInUser(['Support']) }), path: `/admin/members/${ID}` },
    );
    expect(await screen.findByRole('button', { name: 'End all sessions' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reset sign-in methods' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Change groups' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add to Admin' })).toBeNull();
  });

  it('offers the member directory as CSV to Admin and not to Support', async () => {
    apiServer.use(
      http.get(`${TEST_API}/admin/members`, () =>
        HttpResponse.json({ ...envelope([morgan]), page: { nextCursor: null, total: 1 } }),
      ),
    );
    const support = renderWithProviders(<MembersPage />, {
      auth: fakeAuth({ user: signedInUser(['Support']) }),
      path: '/admin/members',
    });
    expect(await screen.findByRole('link', { name: 'morgan@example.com' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Export CSV' })).toBeNull();
    support.unmount();
    renderWithProviders(<MembersPage />, { auth: admin(), path: '/admin/members' });
    expect(await screen.findByRole('button', { name: 'Export CSV' })).toBeTruthy();
  });

  it('opens a confirmed end of sessions again after the step-up sign-in', async () => {
    let ended = 0;
    let signedInAgain = false;
    apiServer.use(
      http.get(`${TEST_API}/admin/members/${ID}`, () => HttpResponse.json(envelope(details))),
      http.post(`${TEST_API}/admin/members/${ID}/end-sessions`, () => {
        if (!signedInAgain)
          return HttpResponse.json(failure('For your security, sign in again to do this.'), {
            status: 401,
            headers: { 'WWW-Authenticate': 'Bearer error="insufficient_user_authentication", max_age=300' },
          });
        ended++;
        return HttpResponse.json({ ...envelope([]), message: 'Every session of the member has ended' });
      }),
    );
    const auth = admin();
    const page = renderWithProviders(
      <Routes>
        <Route path="/admin/members/:memberId" element={<MemberPage />} />
      </Routes>,
      { auth, path: `/admin/members/${ID}` },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'End all sessions' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'End all sessions?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'End all sessions' }));
    await waitFor(() => expect(auth.signinRedirect).toHaveBeenCalledWith({ max_age: 300 }));
    page.unmount();

    signedInAgain = true;
    renderWithProviders(
      <Routes>
        <Route path="/admin/members/:memberId" element={<MemberPage />} />
      </Routes>,
      { auth: admin(), path: `/admin/members/${ID}` },
    );
    const again = await screen.findByRole('alertdialog', { name: 'End all sessions?' });
    fireEvent.click(within(again).getByRole('button', { name: 'End all sessions' }));
    expect((await screen.findByRole('status')).textContent).toBe('Every session of the member has ended');
    expect(ended).toBe(1);
  });
});
