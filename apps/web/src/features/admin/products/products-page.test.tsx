import type { Product } from '@ums/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { apiServer, envelope, useApiServer } from '../../../test/api-server.js';
import { fakeAuth, LocationProbe, renderWithProviders, signedInUser, TEST_API } from '../../../test/render.js';
import { recordDownloads } from '../../../test/downloads.js';
import { ProductsPage } from './products-page.js';

const product = (productId: number, name: string, retailPrice: number): Product => ({
  productId,
  name,
  retailPrice,
  imageUrl: null,
});

/** The product list call, two rows a page, recording each query string it was asked. */
function catalog(asked: string[]) {
  const all = [product(1, 'Lipid Panel', 59), product(2, 'Lipid Panel Plus', 79), product(3, 'Lipid Check', 29)];
  return http.get(`${TEST_API}/product`, ({ request }) => {
    const url = new URL(request.url);
    asked.push(url.search);
    const start = Number(url.searchParams.get('cursor') ?? 0);
    const next = start + 2 < all.length ? String(start + 2) : null;
    return HttpResponse.json({
      ...envelope(all.slice(start, start + 2)),
      page: { nextCursor: next, total: all.length },
    });
  });
}

describe('the products page', () => {
  useApiServer();

  it('asks the server for the view in the address, keeps a new search there, and loads the next page', async () => {
    const asked: string[] = [];
    apiServer.use(catalog(asked));
    renderWithProviders(
      <>
        <ProductsPage />
        <LocationProbe />
      </>,
      { auth: fakeAuth({ user: signedInUser(['Admin']) }), path: '/admin/products?q=lipid&sort=-retailPrice' },
    );
    expect(await screen.findByText('Showing 2 of 3')).toBeTruthy();
    expect(asked).toEqual(['?limit=25&q=lipid&sort=-retailPrice']);
    expect((screen.getByRole('searchbox', { name: 'Search products' }) as HTMLInputElement).value).toBe('lipid');
    expect((screen.getByLabelText('Sort by') as HTMLSelectElement).value).toBe('-retailPrice');

    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Showing 3 of 3')).toBeTruthy();
    expect(asked.at(-1)).toBe('?limit=25&cursor=2&q=lipid&sort=-retailPrice');
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search products' }), { target: { value: 'lipid panel' } });
    // Sent once typing pauses, and written into the address.
    await waitFor(() => expect(asked.at(-1)).toBe('?limit=25&q=lipid+panel&sort=-retailPrice'));
    expect(screen.getByRole('status', { name: 'location' }).textContent).toBe(
      '/admin/products?q=lipid+panel&sort=-retailPrice',
    );
  });

  it('"Export CSV" downloads the whole list as searched and sorted on screen', async () => {
    const saved = recordDownloads();
    const asked: string[] = [];
    apiServer.use(
      http.get(`${TEST_API}/product`, ({ request }) => {
        const url = new URL(request.url);
        asked.push(url.search);
        if (url.searchParams.get('format') === 'csv') {
          return new HttpResponse('productId,name,retailPrice,imageUrl\r\n1,Lipid Panel,59,\r\n', {
            headers: { 'content-type': 'text/csv; charset=utf-8' },
          });
        }
        return HttpResponse.json({
          ...envelope([product(1, 'Lipid Panel', 59)]),
          page: { nextCursor: null, total: 1 },
        });
      }),
    );
    renderWithProviders(<ProductsPage />, {
      auth: fakeAuth({ user: signedInUser(['Admin']) }),
      path: '/admin/products?q=lipid&sort=-retailPrice',
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(asked.at(-1)).toBe('?q=lipid&sort=-retailPrice&format=csv');
    expect(saved[0]!.name).toBe(`products-${new Date().toISOString().slice(0, 10)}.csv`);
    expect(await saved[0]!.blob.text()).toContain('1,Lipid Panel,59,');
  });
});
