import type { DiscountPackage } from '@ums/contracts';
import { act, fireEvent, renderHook, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { apiServer, envelope, failure, listAnswer, useApiServer } from '../../../test/api-server.js';
import { fakeAuth, renderWithProviders, signedInUser, TEST_API } from '../../../test/render.js';
import { DiscountPackagesList } from './discount-packages-list.js';
import { parsePrice, usePriceAutosave } from './use-price-autosave.js';

const pkg: DiscountPackage = {
  discountPackageId: 5,
  name: 'Family "Plus"',
  description: 'For households',
  products: ['Lipid Panel', 'A1c', 'TSH', 'CBC'].map((productName, i) => ({
    productId: 1001 + i,
    productName,
    retailPrice: 40 + i,
    price: i === 0 ? 29.5 : null,
  })),
};

describe('package price edits', () => {
  it('parses a decimal with at most 2 places; empty is null', () => {
    expect(parsePrice('')).toBeNull();
    expect(parsePrice(' 12.5 ')).toBe(12.5);
    expect(parsePrice('12.345')).toBeUndefined();
    expect(parsePrice('-1')).toBeUndefined();
  });

  it('saves 1 s after the last edit, a new edit restarting the timer', async () => {
    vi.useFakeTimers();
    const save = vi.fn(async () => undefined);
    const { result } = renderHook(() => usePriceAutosave(save));
    act(() => result.current.edit(1001, '10'));
    expect(result.current.statuses[1001]).toEqual({ kind: 'saving' });
    await act(async () => vi.advanceTimersByTime(900));
    act(() => result.current.edit(1001, '11'));
    await act(async () => vi.advanceTimersByTime(900));
    expect(save).not.toHaveBeenCalled();
    await act(async () => vi.advanceTimersByTime(100));
    expect(save).toHaveBeenCalledOnce();
    expect(save).toHaveBeenCalledWith(1001, 11);
    expect(result.current.statuses[1001]).toEqual({ kind: 'saved' });
    act(() => result.current.edit(1001, ''));
    await act(async () => vi.advanceTimersByTime(1000));
    expect(save).toHaveBeenLastCalledWith(1001, null);
  });

  it('closing (unmounting) before the second is up discards the edit', async () => {
    vi.useFakeTimers();
    const save = vi.fn(async () => undefined);
    const { result, unmount } = renderHook(() => usePriceAutosave(save));
    act(() => result.current.edit(1001, '10'));
    await act(async () => vi.advanceTimersByTime(500));
    unmount();
    await act(async () => vi.advanceTimersByTime(5000));
    expect(save).not.toHaveBeenCalled();
  });

  it('does not save what is not a price, and says why', () => {
    const save = vi.fn(async () => undefined);
    const { result } = renderHook(() => usePriceAutosave(save));
    act(() => result.current.edit(1001, '1.234'));
    expect(result.current.statuses[1001]).toEqual({ kind: 'error', message: 'Enter a price such as 12.50' });
  });

  it('shows "Failed to update product price" when the server fails', async () => {
    vi.useFakeTimers();
    const save = vi.fn(async () => {
      throw new Error('offline');
    });
    const { result } = renderHook(() => usePriceAutosave(save));
    act(() => result.current.edit(1001, '10'));
    await act(async () => vi.advanceTimersByTime(1000));
    expect(result.current.statuses[1001]).toEqual({ kind: 'error', message: 'Failed to update product price' });
  });
});

describe('the discount packages list', () => {
  useApiServer();
  const admin = fakeAuth({ user: signedInUser(['Admin']) });
  const lists = (packages: DiscountPackage[]) => [
    http.get(`${TEST_API}/discountPackage`, ({ request }) => HttpResponse.json(listAnswer(request, packages))),
    http.get(`${TEST_API}/product`, ({ request }) => HttpResponse.json(listAnswer(request, []))),
  ];

  it('shows the product count, the first 3 products with prices and the rest as "... and N more"', async () => {
    apiServer.use(...lists([pkg]));
    renderWithProviders(<DiscountPackagesList />, { auth: admin });
    const card = (await screen.findByRole('heading', { name: 'Family "Plus"' })).closest('li')!;
    expect(within(card).getByText('4 products')).toBeTruthy();
    const items = within(card)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items).toEqual(['Lipid Panel: $29.50', 'A1c: No price set', 'TSH: No price set', '... and 1 more']);
  });

  it('shows the empty state with the create button', async () => {
    apiServer.use(...lists([]));
    renderWithProviders(<DiscountPackagesList />, { auth: admin });
    expect(
      await screen.findByText('No discount packages found. Create your first package to get started.'),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Create New Package' })).toBeTruthy();
  });

  it('asks the browser confirm with the name in quotes and deletes only after yes', async () => {
    const deleted: string[] = [];
    apiServer.use(
      ...lists([pkg]),
      http.delete(`${TEST_API}/discountPackage/:id`, ({ params }) => {
        deleted.push(String(params['id']));
        return HttpResponse.json(envelope([]));
      }),
    );
    const confirm = vi.fn(() => false);
    renderWithProviders(<DiscountPackagesList confirm={confirm} />, { auth: admin });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Family "Plus"' }));
    expect(confirm).toHaveBeenCalledWith('Are you sure you want to delete "Family "Plus""?');
    expect(deleted).toEqual([]);
    confirm.mockReturnValue(true);
    fireEvent.click(screen.getByRole('button', { name: 'Delete Family "Plus"' }));
    await waitFor(() => expect(deleted).toEqual(['5']));
  });

  it("shows the API's reason when a delete is refused", async () => {
    apiServer.use(
      ...lists([pkg]),
      http.delete(`${TEST_API}/discountPackage/:id`, () =>
        HttpResponse.json(failure('This discount package is used by the membership Health Plus'), { status: 409 }),
      ),
    );
    renderWithProviders(<DiscountPackagesList confirm={() => true} />, { auth: admin });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Family "Plus"' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This discount package is used by the membership Health Plus',
    );
  });

  it('keeps Save disabled in the create dialog until there is a name', async () => {
    apiServer.use(...lists([pkg]));
    renderWithProviders(<DiscountPackagesList />, { auth: admin });
    fireEvent.click(await screen.findByRole('button', { name: 'Create New Package' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Discount Package' });
    const save = within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText(/Name/), { target: { value: '  ' } });
    expect(save.disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText(/Name/), { target: { value: 'Seniors' } });
    expect(save.disabled).toBe(false);
  });
});
