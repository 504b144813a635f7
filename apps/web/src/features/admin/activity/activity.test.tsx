import { AUDIT_MESSAGES, type AuditEntry } from '@ums/contracts/audit';
import type { DiscountPackage, Membership } from '@ums/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { apiServer, envelope, useApiServer } from '../../../test/api-server.js';
import { fakeAuth, renderWithProviders, signedInUser, TEST_API } from '../../../test/render.js';
import { DiscountPackagesList } from '../discount-packages/discount-packages-list.js';
import { MembershipCard } from '../memberships/membership-card.js';
import { ActivityPage } from './activity-page.js';

const admin = () => fakeAuth({ user: signedInUser(['Admin']) });
const priceChange: AuditEntry = {
  id: 41,
  at: '2026-11-20T15:04:00.000Z',
  actor: { id: 'admin-1', email: 'avery@example.com' },
  action: 'package-price-changed',
  entity: 'discount-package',
  entityId: '5',
  label: 'Family Plus',
  labels: { 'product:1001': 'Lipid Panel' },
  before: { products: { '1001': { price: 10 } } },
  after: { products: { '1001': { price: 12.5 } } },
  reverts: null,
  revertedBy: null,
  revertible: true,
};
const edited: AuditEntry = {
  ...priceChange,
  id: 40,
  action: 'membership-updated',
  entity: 'membership',
  entityId: '3',
  label: 'Gold',
  labels: { 'discountPackage:5': 'Family Plus' },
  before: { name: 'Silver', discountPackageId: null, promotionalProducts: { '1002': null } },
  after: { name: 'Gold', discountPackageId: 5, promotionalProducts: { '1002': true } },
  revertedBy: 44,
};
const listed = (entries: AuditEntry[]) => ({ ...envelope(entries), page: { nextCursor: null, total: entries.length } });

describe('the Activity screen', () => {
  useApiServer();

  it("shows who changed what and when, each change as Field, Before and After in the administrator's words", async () => {
    apiServer.use(http.get(`${TEST_API}/admin/audit`, () => HttpResponse.json(listed([priceChange, edited]))));
    renderWithProviders(<ActivityPage />, { auth: admin(), path: '/admin/activity' });
    const price = await screen.findByRole('table', { name: 'Changes: Changed a package price: Family Plus' });
    const rows = within(price)
      .getAllByRole('row')
      .map((row) => row.textContent);
    expect(rows).toEqual(['FieldBeforeAfter', 'Package price of Lipid Panel (#1001)$10.00$12.50']);
    const membership = screen.getByRole('table', { name: 'Changes: Edited the membership: Gold' });
    expect(
      within(membership)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual([
      'FieldBeforeAfter',
      'NameSilverGold',
      'Discount packageNoneFamily Plus (#5)',
      'Promotional product #1002Not promotedPromoted',
    ]);
    expect(screen.getAllByRole('button', { name: 'by avery@example.com' })).toHaveLength(2);
    // An entry already reverted offers no second revert.
    expect(screen.getAllByRole('button', { name: 'Revert' })).toHaveLength(1);
    expect(screen.getByText('Reverted')).toBeTruthy();
  });

  it("names a change made at the server's command line as the operator's, and the server's own as the system's", async () => {
    const byOperator: AuditEntry = {
      ...priceChange,
      id: 43,
      actor: { id: 'operator', email: null },
      action: 'member-groups-changed',
      entity: 'member',
      entityId: '7b2f0c1e-0000-4000-8000-000000000001',
      label: 'kim@example.com',
      labels: {},
      before: { groups: [] },
      after: { groups: ['Support'] },
    };
    const bySystem: AuditEntry = { ...priceChange, id: 42, actor: { id: 'system', email: null } };
    apiServer.use(http.get(`${TEST_API}/admin/audit`, () => HttpResponse.json(listed([byOperator, bySystem]))));
    renderWithProviders(<ActivityPage />, { auth: admin(), path: '/admin/activity' });
    expect(await screen.findByText('by an operator (command line)')).toBeTruthy();
    expect(screen.getByText('by the system')).toBeTruthy();
    // Neither is an administrator whose changes could be shown apart.
    expect(screen.queryByRole('button', { name: /^by / })).toBeNull();
  });

  it("asks for one entity's history and one administrator's changes by the address", async () => {
    const asked: string[] = [];
    apiServer.use(
      http.get(`${TEST_API}/admin/audit`, ({ request }) => {
        asked.push(new URL(request.url).search);
        return HttpResponse.json(listed([priceChange]));
      }),
    );
    renderWithProviders(<ActivityPage />, {
      auth: admin(),
      path: '/admin/activity?entity=discount-package&entityId=5',
    });
    expect(await screen.findByText('History of Family Plus')).toBeTruthy();
    expect(asked).toEqual(['?entity=discount-package&entityId=5&limit=25']);
    fireEvent.click(screen.getByRole('button', { name: 'by avery@example.com' }));
    await waitFor(() => expect(asked.at(-1)).toBe('?entity=discount-package&entityId=5&actor=admin-1&limit=25'));
  });

  it("reverts after confirming, and shows the server's reason with what the entity shows now when it was changed since", async () => {
    let reverts = 0;
    apiServer.use(
      http.get(`${TEST_API}/admin/audit`, () => HttpResponse.json(listed([priceChange]))),
      http.post(`${TEST_API}/admin/audit/41/revert`, () => {
        reverts++;
        return HttpResponse.json(
          {
            isError: true,
            message: AUDIT_MESSAGES.changedSince,
            data: [{ name: 'Family Plus', products: { '1001': { price: 14 }, '1003': { price: 2 } } }],
          },
          { status: 409 },
        );
      }),
    );
    renderWithProviders(<ActivityPage />, { auth: admin(), path: '/admin/activity' });
    fireEvent.click(await screen.findByRole('button', { name: 'Revert' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Revert this change?' });
    expect(reverts).toBe(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revert' }));
    const alert = await screen.findByRole('alert');
    expect(reverts).toBe(1);
    expect(alert.textContent).toContain(AUDIT_MESSAGES.changedSince);
    const now = screen.getByRole('table', { name: 'Now' });
    expect(
      within(now)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual(['FieldNow', 'Package price of Lipid Panel (#1001)$14.00']);
  });

  it('reloads the list after a revert, so the new entry and the Reverted mark show', async () => {
    let reverted = false;
    apiServer.use(
      http.get(`${TEST_API}/admin/audit`, () =>
        HttpResponse.json(
          listed(
            reverted
              ? [
                  {
                    ...priceChange,
                    id: 42,
                    action: 'revert',
                    reverts: 41,
                    before: priceChange.after,
                    after: priceChange.before,
                  },
                  { ...priceChange, revertedBy: 42 },
                ]
              : [priceChange],
          ),
        ),
      ),
      http.post(`${TEST_API}/admin/audit/41/revert`, () => {
        reverted = true;
        return HttpResponse.json(envelope([{ ...priceChange, id: 42 }], AUDIT_MESSAGES.reverted));
      }),
    );
    renderWithProviders(<ActivityPage />, { auth: admin(), path: '/admin/activity' });
    fireEvent.click(await screen.findByRole('button', { name: 'Revert' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Revert' }));
    expect(await screen.findByText('Reverts change #41')).toBeTruthy();
    expect(screen.getByText('Reverted')).toBeTruthy();
  });
});

describe('History links', () => {
  useApiServer();

  it("open a membership's and a discount package's own history on the Activity screen", async () => {
    const membership: Membership = {
      membershipId: 3,
      name: 'Gold',
      description: null,
      productId: 1001,
      productName: 'Lipid Panel',
      productRetailPrice: 40,
      discountPackageId: null,
      discountPackageName: null,
      numberOfFreeEligibleItems: 1,
      membershipLengthInMonths: 12,
      promotionalProducts: [],
    };
    renderWithProviders(<MembershipCard membership={membership} headingLevel={2} />, { auth: admin() });
    expect(screen.getByRole('link', { name: 'History of Gold' }).getAttribute('href')).toBe(
      '/admin/activity?entity=membership&entityId=3',
    );

    const pkg: DiscountPackage = { discountPackageId: 5, name: 'Family Plus', description: null, products: [] };
    apiServer.use(
      http.get(`${TEST_API}/discountPackage`, () =>
        HttpResponse.json({ ...envelope([pkg]), page: { nextCursor: null, total: 1 } }),
      ),
    );
    renderWithProviders(<DiscountPackagesList />, { auth: admin(), path: '/admin/discount-packages' });
    expect((await screen.findByRole('link', { name: 'History of Family Plus' })).getAttribute('href')).toBe(
      '/admin/activity?entity=discount-package&entityId=5',
    );
  });
});
