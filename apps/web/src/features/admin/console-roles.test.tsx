import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { apiServer, envelope, useApiServer } from '../../test/api-server.js';
import { fakeAuth, LocationProbe, renderWithProviders, signedInUser, TEST_API } from '../../test/render.js';
import { Route, Routes } from 'react-router';
import { SignOutProvider } from '../shell/index.js';
import AdminConsole from './admin-console.js';

function consoleAt(path: string, groups: string[]) {
  return renderWithProviders(
    <SignOutProvider>
      <Routes>
        <Route path="/admin/*" element={<AdminConsole />} />
      </Routes>
      <LocationProbe />
    </SignOutProvider>,
    { auth: fakeAuth({ user: signedInUser(groups) }), path },
  );
}
/** SPEC section 2's navigation set, all of which Admin sees. */
const EVERY_ENTRY = [
  'Dashboard',
  'Memberships',
  'Discount Packages',
  'Products',
  'Promotional Products',
  'Members',
  'Activity',
  'Settings',
];
const navEntries = async () =>
  within(await screen.findByRole('navigation', { name: 'Admin console' }))
    .getAllByRole('link')
    .map((link) => link.textContent);

describe('the console by role', () => {
  useApiServer();

  it('starts Support at Members and shows it Members, Activity and Settings only', async () => {
    apiServer.use(
      http.get(`${TEST_API}/admin/members`, () =>
        HttpResponse.json({ ...envelope([]), page: { nextCursor: null, total: 0 } }),
      ),
    );
    consoleAt('/admin', ['Support']);
    expect(await screen.findByRole('heading', { name: 'Members', level: 1 })).toBeTruthy();
    expect(screen.getByRole('status', { name: 'location' }).textContent).toBe('/admin/members');
    expect(await navEntries()).toEqual(['Members', 'Activity', 'Settings']);
  });

  it('tells Support at a catalog address that the catalog is not in their role, and links to their start', async () => {
    consoleAt('/admin/memberships/3', ['Support']);
    expect(await screen.findByRole('heading', { name: 'Your role does not include the catalog.' })).toBeTruthy();
    expect(screen.getByText('Ask an administrator for the Catalog role.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the console’s start' }).getAttribute('href')).toBe('/admin/members');
  });

  it('shows Catalog the catalog and no Members entry, and tells it member data is not in its role', async () => {
    consoleAt('/admin/members/7d0f4c1e-2b9a-4c51-9d4e-1f2a3b4c5d6e', ['Catalog']);
    expect(await screen.findByRole('heading', { name: 'Your role does not include member data.' })).toBeTruthy();
    expect(screen.getByText('Ask an administrator for the Support role.')).toBeTruthy();
    expect(await navEntries()).toEqual(EVERY_ENTRY.filter((entry) => entry !== 'Members'));
  });

  it('shows Admin every entry', async () => {
    consoleAt('/admin/settings', ['Admin']);
    expect(await navEntries()).toEqual(EVERY_ENTRY);
  });
});
