import type { Membership } from '@ums/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { apiServer, envelope, failure, listAnswer, useApiServer } from '../../../test/api-server.js';
import { fakeAuth, LocationProbe, renderWithProviders, signedInUser, TEST_API } from '../../../test/render.js';
import type { MembershipCalls } from './api.js';
import { normalizeFreeItems, normalizeLength, toDraft, toInput, validate } from './form-state.js';
import { MembershipCard } from './membership-card.js';
import { MembershipFormPage } from './membership-form-page.js';
import { MembershipSaveError, planPromotions, saveMembership } from './save-membership.js';

const membership: Membership = {
  membershipId: 9,
  name: 'Health Plus',
  description: 'Quarterly check-ins',
  productId: 1002,
  productName: 'Comprehensive Metabolic Panel',
  productRetailPrice: 59,
  discountPackageId: 2,
  discountPackageName: 'Family Wellness',
  numberOfFreeEligibleItems: 3,
  membershipLengthInMonths: 12,
  promotionalProducts: ['A', 'B', 'C', 'D', 'E'].map((name, i) => ({ productId: 1001 + i, name })),
};

describe('membership form rules', () => {
  it('falls back to 12 months for a length outside 1-120 or not a whole number', () => {
    expect(normalizeLength('0')).toBe(12);
    expect(normalizeLength('121')).toBe(12);
    expect(normalizeLength('abc')).toBe(12);
    expect(normalizeLength('6.5')).toBe(12);
    expect(normalizeLength('')).toBe(12);
    expect(normalizeLength('1')).toBe(1);
    expect(normalizeLength('120')).toBe(120);
  });

  it('counts free items from 0, 0 by default', () => {
    expect(normalizeFreeItems('-1')).toBe(0);
    expect(normalizeFreeItems('x')).toBe(0);
    expect(normalizeFreeItems('4')).toBe(4);
    expect(toDraft(null)).toMatchObject({ freeItems: '0', length: '12', productId: '', discountPackageId: '' });
  });

  it('requires a name (not blank) and a product', () => {
    expect(validate({ ...toDraft(null), name: '   ' })).toEqual({
      name: 'Name is required',
      productId: 'Product is required',
    });
    expect(validate(toDraft(membership))).toEqual({});
  });

  it('sends "None" as a null discount package', () => {
    expect(toInput({ ...toDraft(membership), discountPackageId: '', length: '500' })).toEqual({
      name: 'Health Plus',
      description: 'Quarterly check-ins',
      productId: 1002,
      discountPackageId: null,
      numberOfFreeEligibleItems: 3,
      membershipLengthInMonths: 12,
    });
  });
});

function fakeCalls(overrides: Partial<MembershipCalls> = {}) {
  const log: string[] = [];
  const calls = {
    create: vi.fn(async () => {
      log.push('create');
      return { ...membership, membershipId: 42 };
    }),
    update: vi.fn(async (id: number) => {
      log.push(`update ${id}`);
      return membership;
    }),
    addPromotionalProducts: vi.fn(async (links: { productId: number }[]) => {
      log.push(`batch ${links.map((l) => l.productId).join(',')}`);
      return null;
    }),
    removePromotionalProduct: vi.fn(async (link: { productId: number }) => {
      log.push(`remove ${link.productId}`);
      return null;
    }),
    ...overrides,
  } as unknown as MembershipCalls;
  return { calls, log };
}

describe('saving a membership', () => {
  it('plans added and removed promotional products', () => {
    expect(planPromotions([1, 2, 3], [2, 3, 4, 5])).toEqual({ added: [4, 5], removed: [1] });
  });

  it('creates, then adds every checked product in one batch call', async () => {
    const { calls, log } = fakeCalls();
    const saved = await saveMembership(
      calls,
      { membershipId: null, promotional: [] },
      toInput(toDraft(membership)),
      [1, 2, 3, 4, 5],
    );
    expect(log).toEqual(['create', 'batch 1,2,3,4,5']);
    expect(saved).toEqual({ membershipId: 42, promotional: [1, 2, 3, 4, 5] });
  });

  it('updates, adds new ones in one batch and removes unchecked ones one call each', async () => {
    const { calls, log } = fakeCalls();
    const saved = await saveMembership(
      calls,
      { membershipId: 9, promotional: [1, 2, 3, 4, 5] },
      toInput(toDraft(membership)),
      [1, 3, 5, 6],
    );
    expect(log).toEqual(['update 9', 'batch 6', 'remove 2', 'remove 4']);
    expect(saved.promotional.sort()).toEqual([1, 3, 5, 6]);
  });

  it('makes no promotional calls when nothing changed', async () => {
    const { calls, log } = fakeCalls();
    await saveMembership(calls, { membershipId: 9, promotional: [1] }, toInput(toDraft(membership)), [1]);
    expect(log).toEqual(['update 9']);
  });

  it('reports what reached the server when a call fails part-way', async () => {
    const { calls } = fakeCalls({
      removePromotionalProduct: vi.fn(async (link: { productId: number }) => {
        if (link.productId === 4) throw new Error('network down');
        return null;
      }) as unknown as MembershipCalls['removePromotionalProduct'],
    });
    const attempt = saveMembership(calls, { membershipId: null, promotional: [] }, toInput(toDraft(membership)), [1]);
    await expect(attempt).resolves.toEqual({ membershipId: 42, promotional: [1] });
    const failing = saveMembership(
      calls,
      { membershipId: 42, promotional: [1, 2, 4] },
      toInput(toDraft(membership)),
      [7],
    );
    const error = (await failing.catch((e: unknown) => e)) as MembershipSaveError;
    expect(error).toBeInstanceOf(MembershipSaveError);
    expect(error.membershipSaved).toBe(true);
    // 7 was added and 1, 2 removed before 4 failed.
    expect(error.saved).toEqual({ membershipId: 42, promotional: [4, 7] });
  });
});

describe('a membership card', () => {
  it('shows every field, the first 3 promotional products and "... and N more"', () => {
    const { container } = renderWithProviders(<MembershipCard membership={membership} headingLevel={2} />, {
      auth: fakeAuth({ user: signedInUser(['Admin']) }),
    });
    const card = container;
    expect(within(card).getByRole('heading', { name: 'Health Plus' })).toBeTruthy();
    expect(within(card).getByText('Quarterly check-ins')).toBeTruthy();
    expect(within(card).getByText('Comprehensive Metabolic Panel (#1002)')).toBeTruthy();
    expect(within(card).getByText('Family Wellness')).toBeTruthy();
    expect(within(card).getByText('3')).toBeTruthy();
    expect(within(card).getByText('12 months')).toBeTruthy();
    expect(within(card).getByText('5 promotional products')).toBeTruthy();
    const names = within(card)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(names).toEqual(['A', 'B', 'C', '... and 2 more']);
    expect(within(card).getByRole('link', { name: 'Health Plus' }).getAttribute('href')).toBe('/admin/memberships/9');
  });
});

describe('the membership form when a save fails part-way', () => {
  useApiServer();

  it('says the membership was saved but not its promotional products, and the next Save sends only what is missing', async () => {
    const requests: string[] = [];
    let batchAnswers = 0;
    apiServer.use(
      http.get(`${TEST_API}/product`, ({ request }) =>
        HttpResponse.json(
          listAnswer(request, [{ productId: 1, name: 'Lipid Panel', retailPrice: 40, imageUrl: null }]),
        ),
      ),
      http.get(`${TEST_API}/discountPackage`, ({ request }) => HttpResponse.json(listAnswer(request, []))),
      http.post(`${TEST_API}/membership`, () => {
        requests.push('create');
        return HttpResponse.json(envelope({ ...membership, membershipId: 42, promotionalProducts: [] }), {
          status: 201,
        });
      }),
      http.put(`${TEST_API}/membership/42`, () => {
        requests.push('update 42');
        return HttpResponse.json(envelope({ ...membership, membershipId: 42 }));
      }),
      http.post(`${TEST_API}/promotionalProduct/batch`, async ({ request }) => {
        requests.push(`batch ${JSON.stringify(await request.json())}`);
        return batchAnswers++ === 0
          ? HttpResponse.json(failure('Product 1 is already promoted'), { status: 409 })
          : HttpResponse.json(envelope([]));
      }),
    );
    renderWithProviders(
      <>
        <Routes>
          <Route path="/admin/memberships/:membershipId" element={<MembershipFormPage />} />
          <Route path="/admin/memberships" element={<p>list</p>} />
        </Routes>
        <LocationProbe />
      </>,
      { auth: fakeAuth({ user: signedInUser(['Admin']) }), path: '/admin/memberships/new' },
    );

    fireEvent.change(await screen.findByRole('textbox', { name: /Name/ }), { target: { value: 'Gold' } });
    fireEvent.click(await screen.findByRole('radio', { name: 'Lipid Panel ($40.00)' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Lipid Panel ($40.00)' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(
      await screen.findByText(
        'The membership was saved, but not all of its promotional products (Product 1 is already promoted). Press Save to try again.',
      ),
    ).toBeTruthy();
    expect(screen.getByLabelText('location').textContent).toBe('/admin/memberships/new');

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByLabelText('location').textContent).toBe('/admin/memberships'));
    // The second Save updates the membership the first one created and retries only the promotional products.
    expect(requests).toEqual([
      'create',
      'batch [{"productId":1,"membershipId":42}]',
      'update 42',
      'batch [{"productId":1,"membershipId":42}]',
    ]);
  });
});

describe('the membership form', () => {
  useApiServer();

  const pageOf = <T,>(data: T[], nextCursor: string | null, total: number) => ({
    isError: false,
    message: '',
    data,
    page: { nextCursor, total },
  });
  const product = (productId: number, name: string) => ({ productId, name, retailPrice: 10, imageUrl: null });

  function renderNewForm() {
    renderWithProviders(
      <Routes>
        <Route path="/admin/memberships/:membershipId" element={<MembershipFormPage />} />
        <Route path="/admin/memberships" element={<p>list</p>} />
      </Routes>,
      { auth: fakeAuth({ user: signedInUser(['Admin']) }), path: '/admin/memberships/new' },
    );
  }

  it("shows the server's error on a field under that field, and the form's fallback in the banner", async () => {
    apiServer.use(
      http.get(`${TEST_API}/product`, () => HttpResponse.json(pageOf([product(1, 'Lipid Panel')], null, 1))),
      http.get(`${TEST_API}/discountPackage`, () => HttpResponse.json(pageOf([], null, 0))),
      http.post(`${TEST_API}/membership`, () =>
        HttpResponse.json(
          {
            isError: true,
            message: 'Invalid request. name: A membership named Gold already exists',
            errors: { name: ['A membership named Gold already exists'] },
          },
          { status: 400 },
        ),
      ),
    );
    renderNewForm();
    fireEvent.change(await screen.findByRole('textbox', { name: /Name/ }), { target: { value: 'Gold' } });
    fireEvent.click(await screen.findByRole('radio', { name: 'Lipid Panel ($10.00)' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(
      await screen.findByRole('textbox', { name: /Name/, description: 'A membership named Gold already exists' }),
    ).toBeTruthy();
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toContain('Failed to save membership');
  });

  it("checks the name with the API's rule before sending, under the field", async () => {
    const posted = vi.fn();
    apiServer.use(
      http.get(`${TEST_API}/product`, () => HttpResponse.json(pageOf([product(1, 'Lipid Panel')], null, 1))),
      http.get(`${TEST_API}/discountPackage`, () => HttpResponse.json(pageOf([], null, 0))),
      http.post(`${TEST_API}/membership`, posted),
    );
    renderNewForm();
    fireEvent.change(await screen.findByRole('textbox', { name: /Name/ }), { target: { value: 'G'.repeat(121) } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByRole('textbox', { name: /Name/, description: 'Name must be at most 120 characters' }),
    ).toBeTruthy();
    expect(screen.getByRole('radiogroup', { name: /Product/, description: 'Product is required' })).toBeTruthy();
    expect(posted).not.toHaveBeenCalled();
  });

  it("pages the product choice: the next page's products appear after Load more", async () => {
    const asked: string[] = [];
    apiServer.use(
      http.get(`${TEST_API}/product`, ({ request }) => {
        const cursor = new URL(request.url).searchParams.get('cursor');
        asked.push(cursor ?? 'first');
        return HttpResponse.json(
          cursor === 'p2'
            ? pageOf([product(2, 'Thyroid Panel')], null, 2)
            : pageOf([product(1, 'Lipid Panel')], 'p2', 2),
        );
      }),
      http.get(`${TEST_API}/discountPackage`, () => HttpResponse.json(pageOf([], null, 0))),
    );
    renderNewForm();
    const choice = await screen.findByRole('radiogroup', { name: /Product/ });
    await within(choice).findByRole('radio', { name: 'Lipid Panel ($10.00)' });
    expect(within(choice).queryByRole('radio', { name: 'Thyroid Panel ($10.00)' })).toBeNull();
    // The product choice's Load more is the first on the form (the promotional checklist's comes after it).
    fireEvent.click(screen.getAllByRole('button', { name: 'Load more' })[0]!);
    fireEvent.click(await within(choice).findByRole('radio', { name: 'Thyroid Panel ($10.00)' }));
    expect(within(choice).getByRole('radio', { name: 'Thyroid Panel ($10.00)' })).toHaveProperty('checked', true);
    expect(asked).toContain('p2');
  });
});
