import type { PaymentHistoryEntry } from '@ums/contracts';
import { QueryClient } from '@tanstack/react-query';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiServer, envelope, failure, useApiServer } from '../../test/api-server.js';
import { fakeAuth, renderWithProviders, signedInUser, TEST_API } from '../../test/render.js';
import { recordDownloads } from '../../test/downloads.js';
import { PaymentHistorySection } from './components/payment-history-section.js';
import { DEFAULT_PAYMENT_SORT, nextSort, serverSort } from './sort.js';

const orders: PaymentHistoryEntry[] = [
  { orderId: 7, totalAmount: 118, date: '2026-03-07T15:00:00.000Z', status: 'Paid', productNames: ['Lipid Panel'] },
  { orderId: 12, totalAmount: 9.5, date: '2026-05-01T15:00:00.000Z', status: 'Refunded', productNames: ['A1C', 'TSH'] },
  { orderId: 3, totalAmount: 1250, date: '2025-12-24T15:00:00.000Z', status: 'Failed', productNames: [] },
];
/**
 * A stand-in for the payment history call's paging: sorts by `sort`, answers `limit` rows from `cursor` (here an
 * offset) with the page's total, and records each query string it was asked.
 */
function paged(all: PaymentHistoryEntry[], asked: string[] = []) {
  return http.get(`${TEST_API}/PaymentHistory`, ({ request }) => {
    const url = new URL(request.url);
    asked.push(url.search);
    const sort = url.searchParams.get('sort') ?? '-date';
    const sign = sort.startsWith('-') ? -1 : 1;
    const field = sort.replace(/^-/, '') as keyof PaymentHistoryEntry;
    const value = (o: PaymentHistoryEntry) =>
      field === 'date' ? Date.parse(o.date) : field === 'productNames' ? o.productNames.join(', ') : o[field];
    const sorted = [...all].sort((a, b) => {
      const [x, y] = [value(a), value(b)];
      return sign * ((x < y ? -1 : x > y ? 1 : 0) || a.orderId - b.orderId);
    });
    const start = Number(url.searchParams.get('cursor') ?? 0);
    const limit = Number(url.searchParams.get('limit') ?? sorted.length);
    const next = start + limit < sorted.length ? String(start + limit) : null;
    return HttpResponse.json({
      ...envelope(sorted.slice(start, start + limit)),
      page: { nextCursor: next, total: sorted.length },
    });
  });
}
const answer = () => paged(orders);
/** Every media query matches, as on a phone: the section shows cards. */
const narrowScreen = () =>
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query) =>
      ({
        matches: true,
        media: query,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
      }) as unknown as MediaQueryList,
  );
const render = () => renderWithProviders(<PaymentHistorySection />, { auth: fakeAuth({ user: signedInUser() }) });
const firstColumn = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]!.textContent);

describe('payment history sorting', () => {
  it('starts newest first; a click flips the column, another column starts ascending', () => {
    expect(serverSort(DEFAULT_PAYMENT_SORT)).toBe('-date');
    expect(nextSort(DEFAULT_PAYMENT_SORT, 'date')).toEqual({ column: 'date', direction: 'ascending' });
    expect(nextSort(DEFAULT_PAYMENT_SORT, 'totalAmount')).toEqual({ column: 'totalAmount', direction: 'ascending' });
    expect(serverSort({ column: 'productNames', direction: 'ascending' })).toBe('productNames');
  });
});

describe('the Payment History section', () => {
  useApiServer();
  afterEach(() => vi.restoreAllMocks());

  it('shows "#id", "$x.xx", "Mon D, YYYY" and the status as given', async () => {
    apiServer.use(answer());
    render();
    expect(screen.getByText('Loading payment history...')).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Payment History' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual(['Order#', 'Products', 'Amount (USD)', 'Date', 'Status', 'Receipt']);
    const first = within(table).getAllByRole('row')[1]!;
    expect(
      within(first)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['#12', 'A1C, TSH', '$9.50', 'May 1, 2026', 'Refunded', 'Receipt']);
    expect(within(table).getByText('$1,250.00')).toBeTruthy();
  });

  it("asks the server for the clicked column's order, both ways", async () => {
    const asked: string[] = [];
    apiServer.use(paged(orders, asked));
    render();
    await screen.findByRole('table');
    expect(firstColumn()).toEqual(['#12', '#7', '#3']);
    expect(asked).toEqual(['?limit=25&sort=-date']);
    fireEvent.click(screen.getByText('Order#'));
    // Until the server's order is drawn, the previous rows stay, marked busy.
    expect(screen.getByRole('table').getAttribute('aria-busy')).toBe('true');
    expect(firstColumn()).toEqual(['#12', '#7', '#3']);
    await waitFor(() => expect(firstColumn()).toEqual(['#3', '#7', '#12']));
    expect(screen.getByRole('table').getAttribute('aria-busy')).toBeNull();
    expect(asked.at(-1)).toBe('?limit=25&sort=orderId');
    expect(screen.getByRole('columnheader', { name: 'Order#' }).getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(screen.getByText('Order#'));
    await waitFor(() => expect(firstColumn()).toEqual(['#12', '#7', '#3']));
    expect(asked.at(-1)).toBe('?limit=25&sort=-orderId');
    expect(screen.getByRole('columnheader', { name: 'Order#' }).getAttribute('aria-sort')).toBe('descending');
  });

  it("shows the first 25 orders in the server's order, and the next page on request", async () => {
    // The newest order has the smallest amount: the default order and the amount order differ.
    const many = Array.from({ length: 30 }, (_, i) => ({
      ...orders[0]!,
      orderId: i + 1,
      totalAmount: i + 1,
      date: new Date(Date.UTC(2026, 0, 31 - i)).toISOString(),
    }));
    const asked: string[] = [];
    apiServer.use(paged(many, asked));
    render();
    await screen.findByRole('table');
    expect(screen.getAllByRole('row')).toHaveLength(26);
    expect(firstColumn()[0]).toBe('#1');
    fireEvent.click(screen.getByText('Amount (USD)'));
    fireEvent.click(screen.getByText('Amount (USD)'));
    // The largest amount of all 30 comes first, though it was not among the first 25 shown.
    await waitFor(() => expect(firstColumn()[0]).toBe('#30'));
    fireEvent.click(await screen.findByRole('button', { name: 'Show 5 more (5 not shown)' }));
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(31));
    expect(asked.at(-1)).toBe('?limit=25&cursor=25&sort=-totalAmount');
    expect(screen.queryByRole('button', { name: /Show \d+ more/ })).toBeNull();
  });

  it('says "No payment history found." for a member without orders', async () => {
    apiServer.use(paged([]));
    render();
    expect(await screen.findByText('No payment history found.')).toBeTruthy();
  });

  it('shows "Error: {message}", the fallback for a server fault', async () => {
    apiServer.use(http.get(`${TEST_API}/PaymentHistory`, () => HttpResponse.json(failure('x'), { status: 500 })));
    render();
    expect((await screen.findByRole('alert')).textContent).toBe('Error: Failed to load payment history');
  });

  it('asks to log in when nobody is signed in, without calling the API', () => {
    let calls = 0;
    apiServer.use(
      http.all(`${TEST_API}/*`, () => {
        calls++;
        return HttpResponse.json(envelope([]));
      }),
    );
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    renderWithProviders(<PaymentHistorySection />, { queryClient });
    expect(screen.getByText('Please log in to view your payment history')).toBeTruthy();
    // A read starts fetching as it mounts, before its request leaves: none is under way, so none will reach the API.
    expect(queryClient.isFetching()).toBe(0);
    expect(calls).toBe(0);
  });

  it('shows cards with Products, Date and Status on a narrow screen', async () => {
    narrowScreen();
    apiServer.use(answer());
    render();
    const list = await screen.findByRole('list', { name: 'Payment History' });
    expect(screen.queryByRole('table')).toBeNull();
    const card = within(list).getAllByRole('listitem')[0]!;
    expect(within(card).getByText('Products')).toBeTruthy();
    expect(within(card).getByText('A1C, TSH')).toBeTruthy();
    expect(within(card).getByText('May 1, 2026')).toBeTruthy();
    expect(within(card).getByText('Refunded')).toBeTruthy();
  });
});

describe('receipts', () => {
  useApiServer();
  afterEach(() => vi.restoreAllMocks());

  const pdf = (text: string) =>
    new HttpResponse(`%PDF-1.3 ${text}`, {
      headers: { 'content-type': 'application/pdf', 'content-disposition': 'attachment' },
    });

  it("each order's Receipt downloads its PDF as receipt-ID.pdf, with the token", async () => {
    const saved = recordDownloads();
    let authorization: string | null = null;
    apiServer.use(
      answer(),
      http.get(`${TEST_API}/PaymentHistory/:orderId/receipt`, ({ params, request }) => {
        authorization = request.headers.get('authorization');
        return pdf(`order ${String(params['orderId'])}`);
      }),
    );
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Download the receipt for order #12' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]!.name).toBe('receipt-12.pdf');
    expect(await saved[0]!.blob.text()).toBe('%PDF-1.3 order 12');
    expect(authorization).toBe('Bearer access-token');
  });

  it('offers every year of the orders on screen, newest first, as one PDF each', async () => {
    const saved = recordDownloads();
    const years: string[] = [];
    apiServer.use(
      answer(),
      http.get(`${TEST_API}/PaymentHistory/receipts`, ({ request }) => {
        years.push(new URL(request.url).searchParams.get('year') ?? '');
        return pdf('year');
      }),
    );
    render();
    await screen.findByRole('table', { name: 'Payment History' });
    const buttons = screen.getAllByRole('button', { name: /^Download all receipts for / }).map((b) => b.textContent);
    expect(buttons).toEqual(['Download all receipts for 2026', 'Download all receipts for 2025']);
    fireEvent.click(screen.getByRole('button', { name: 'Download all receipts for 2025' }));
    await waitFor(() => expect(saved.map((file) => file.name)).toEqual(['receipts-2025.pdf']));
    expect(years).toEqual(['2025']);
  });

  it("says what went wrong when a receipt cannot be had, in the server's words", async () => {
    const saved = recordDownloads();
    apiServer.use(
      answer(),
      http.get(`${TEST_API}/PaymentHistory/:orderId/receipt`, () =>
        HttpResponse.json(failure('Order 12 was not found'), { status: 404 }),
      ),
    );
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Download the receipt for order #12' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Order 12 was not found');
    expect(saved).toEqual([]);
  });

  it('a receipt is on every card on a narrow screen too', async () => {
    narrowScreen();
    apiServer.use(answer());
    render();
    const list = await screen.findByRole('list', { name: 'Payment History' });
    for (const card of within(list).getAllByRole('listitem')) {
      expect(within(card).getByRole('button', { name: /^Download the receipt for order #\d+$/ }).textContent).toBe(
        'Receipt',
      );
    }
  });
});
