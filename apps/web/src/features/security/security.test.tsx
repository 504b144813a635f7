import type { DeviceSession, SecurityActivity } from '@ums/contracts/security';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { apiServer, envelope, failure, useApiServer } from '../../test/api-server.js';
import { fakeAuth, renderWithProviders, signedInUser, TEST_API } from '../../test/render.js';
import { SecuritySection } from './components/security-section.js';

const here: DeviceSession = {
  id: 'here',
  current: true,
  createdAt: '2026-11-23T09:00:00.000Z',
  lastActiveAt: '2026-11-23T10:00:00.000Z',
  browser: 'Firefox 133',
  os: 'Linux',
  ipAddress: '203.0.113.7',
};
const phone: DeviceSession = { ...here, id: 'phone', current: false, browser: 'Safari 17', os: 'iOS 17.5' };

const entry = (n: number): SecurityActivity => ({
  at: new Date(Date.UTC(2026, 10, 23, 12, 0) - n * 60_000).toISOString(),
  event: n === 0 ? 'session-ended' : 'sign-in',
  browser: 'Firefox 133',
  os: 'Linux',
  ipAddress: `10.0.0.${n}`,
});

const noFactors = {
  passkeys: [],
  totp: { enabled: false, createdAt: null },
  recoveryCodes: { remaining: 0 },
};

describe('the Security section', () => {
  useApiServer();
  beforeEach(() =>
    apiServer.use(http.get(`${TEST_API}/security/factors`, () => HttpResponse.json(envelope([noFactors])))),
  );
  const render = () => renderWithProviders(<SecuritySection />, { auth: fakeAuth({ user: signedInUser() }) });

  it('lists the devices with "This device" and signs another one out', async () => {
    let devices = [here, phone];
    const ended: string[] = [];
    apiServer.use(
      http.get(`${TEST_API}/sessions`, () => HttpResponse.json(envelope(devices))),
      http.delete(`${TEST_API}/sessions/:id`, ({ params }) => {
        ended.push(String(params['id']));
        devices = devices.filter((d) => d.id !== params['id']);
        return HttpResponse.json(envelope([], 'Session ended'));
      }),
      http.get(`${TEST_API}/activity`, () =>
        HttpResponse.json({ ...envelope([]), page: { nextCursor: null, total: 0 } }),
      ),
    );
    render();
    const list = await screen.findByRole('list', { name: 'Devices' });
    const current = within(list).getByRole('listitem', { name: 'Firefox 133 on Linux' });
    expect(within(current).getByText('This device')).toBeTruthy();
    expect(within(current).queryByRole('button')).toBeNull();
    expect(current.textContent).toContain('203.0.113.7');

    fireEvent.click(within(list).getByRole('button', { name: 'Sign out Safari 17 on iOS 17.5' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Safari 17 on iOS 17.5' })).toBeNull());
    expect(ended).toEqual(['phone']);
    expect(await screen.findByText('Your account is signed in on this device only.')).toBeTruthy();
    expect(await screen.findByText('No activity in the last 90 days.')).toBeTruthy();
  });

  // One modal per test: in jsdom, Fluent's focus manager can leave a modal opened right after another one closed
  // hidden from assistive technology (a real browser does not).
  for (const choice of ['Cancel', 'Sign out everywhere else'] as const) {
    it(`asks before "Sign out everywhere else": ${choice === 'Cancel' ? 'Cancel keeps every device' : 'confirming ends the others'}`, async () => {
      let devices = [here, phone];
      let everywhere = 0;
      apiServer.use(
        http.get(`${TEST_API}/sessions`, () => HttpResponse.json(envelope(devices))),
        http.delete(`${TEST_API}/sessions`, () => {
          everywhere++;
          devices = [here];
          return HttpResponse.json(envelope([], 'Signed out everywhere else'));
        }),
        http.get(`${TEST_API}/activity`, () =>
          HttpResponse.json({ ...envelope([]), page: { nextCursor: null, total: 0 } }),
        ),
      );
      render();
      fireEvent.click(await screen.findByRole('button', { name: 'Sign out everywhere else' }));
      const dialog = await screen.findByRole('alertdialog', { name: 'Sign out everywhere else?' });
      expect(dialog.textContent).toContain('Every other device signed in to your account will be signed out at once.');
      fireEvent.click(within(dialog).getByRole('button', { name: choice }));
      await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
      if (choice === 'Cancel') {
        expect(everywhere).toBe(0);
        expect(screen.getByText('Safari 17 on iOS 17.5')).toBeTruthy();
      } else {
        expect(await screen.findByText('Your account is signed in on this device only.')).toBeTruthy();
        expect(everywhere).toBe(1);
      }
    });
  }

  it('shows the newest 20 activity entries, and 20 more with "Show more"', async () => {
    const all = Array.from({ length: 30 }, (_, n) => entry(n));
    const pages: (string | null)[] = [];
    apiServer.use(
      http.get(`${TEST_API}/sessions`, () => HttpResponse.json(envelope([here]))),
      http.get(`${TEST_API}/activity`, ({ request }) => {
        const url = new URL(request.url);
        expect(url.searchParams.get('limit')).toBe('20');
        const cursor = url.searchParams.get('cursor');
        pages.push(cursor);
        const start = cursor ? Number(cursor) : 0;
        return HttpResponse.json({
          ...envelope(all.slice(start, start + 20)),
          page: { nextCursor: start + 20 < all.length ? String(start + 20) : null, total: all.length },
        });
      }),
    );
    render();
    const list = await screen.findByRole('list', { name: 'Recent activity' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(20);
    expect(within(list).getAllByRole('listitem')[0]!.textContent).toContain('Session ended from another device');
    expect(within(list).getAllByRole('listitem')[1]!.textContent).toMatch(
      /^Signed in.*Firefox 133 on Linux · 10\.0\.0\.1$/,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Show more' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(30));
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
    expect(pages).toEqual([null, '20']);
  });

  it('says the identity provider manages sessions when the API answers 501, and shows load errors otherwise', async () => {
    apiServer.use(
      http.get(`${TEST_API}/sessions`, () =>
        HttpResponse.json(failure('Sessions are managed by your identity provider.'), { status: 501 }),
      ),
      http.get(`${TEST_API}/activity`, () => HttpResponse.json(failure('Database unavailable'), { status: 503 })),
    );
    render();
    expect(await screen.findByText('Sessions are managed by your identity provider.')).toBeTruthy();
    expect(await screen.findByRole('alert')).toBeTruthy();
  });
});
