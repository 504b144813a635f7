import type { Subscription } from '@ums/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { apiServer, envelope, failure, useApiServer } from '../../test/api-server.js';
import { fakeAuth, renderWithProviders, signedInUser, TEST_API } from '../../test/render.js';
import { SubscriptionsSection } from './components/subscriptions-section.js';
import { priceLine, subscriptionName } from './messages.js';

const monthly: Subscription = {
  subscriptionId: 1,
  pricePerInterval: 35,
  billingInterval: 1,
  billingPeriod: 'month',
  products: [{ productName: 'Lipid Panel', imageUrl: '/catalog-images/lipid-panel.svg' }],
};
const quarterly: Subscription = {
  subscriptionId: 2,
  pricePerInterval: 89,
  billingInterval: 3,
  billingPeriod: 'month',
  products: [],
};

describe('subscription texts', () => {
  it('price per unit, or per n units when the interval is not 1', () => {
    expect(priceLine(monthly)).toBe('$35.00 / month');
    expect(priceLine(quarterly)).toBe('$89.00 / 3 months');
    expect(priceLine({ ...quarterly, billingInterval: 2, billingPeriod: 'weeks' })).toBe('$89.00 / 2 weeks');
  });

  it('names the products, or "Unknown Product"', () => {
    expect(subscriptionName(monthly)).toBe('Lipid Panel');
    expect(subscriptionName(quarterly)).toBe('Unknown Product');
  });
});

describe('the Subscriptions section', () => {
  useApiServer();
  const render = () => renderWithProviders(<SubscriptionsSection />, { auth: fakeAuth({ user: signedInUser() }) });

  it('shows the loading text, then cards with image or placeholder', async () => {
    apiServer.use(http.get(`${TEST_API}/UserSubscriptions`, () => HttpResponse.json(envelope([monthly, quarterly]))));
    const { container } = render();
    expect(screen.getByText('Loading subscriptions...')).toBeTruthy();
    expect(screen.getByText('Recurring payments')).toBeTruthy();
    const cards = within(await screen.findByRole('list', { name: 'Subscriptions' })).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    expect(within(cards[0]!).getByText('$35.00 / month')).toBeTruthy();
    expect(container.querySelector('img')?.getAttribute('src')).toBe('/catalog-images/lipid-panel.svg');
    expect(within(cards[1]!).getByText('Unknown Product')).toBeTruthy();
    expect(within(cards[1]!).getByRole('img', { name: 'No product image' })).toBeTruthy();
  });

  it('says "No subscriptions found." when there are none', async () => {
    apiServer.use(http.get(`${TEST_API}/UserSubscriptions`, () => HttpResponse.json(envelope([]))));
    render();
    expect(await screen.findByText('No subscriptions found.')).toBeTruthy();
  });

  it('shows "Failed to load subscriptions" for a server fault', async () => {
    apiServer.use(http.get(`${TEST_API}/UserSubscriptions`, () => HttpResponse.json(failure('x'), { status: 500 })));
    render();
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to load subscriptions');
  });

  it('asks before deleting; Delete cancels on the server and reloads the list', async () => {
    let list = [monthly, quarterly];
    const deleted: string[] = [];
    apiServer.use(
      http.get(`${TEST_API}/UserSubscriptions`, () => HttpResponse.json(envelope(list))),
      http.delete(`${TEST_API}/UserSubscriptions/:id`, ({ params }) => {
        deleted.push(String(params['id']));
        list = list.filter((s) => String(s.subscriptionId) !== params['id']);
        return HttpResponse.json(envelope([]));
      }),
    );
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete subscription Lipid Panel' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete subscription?' });
    expect(within(dialog).getByText("You'll need to buy it again if you change your mind.")).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('Lipid Panel')).toBeNull());
    expect(deleted).toEqual(['1']);
    expect(screen.getByText('Unknown Product')).toBeTruthy();
  });

  it('Cancel sends no delete and keeps the subscription', async () => {
    const deletes: string[] = [];
    let lists = 0;
    apiServer.use(
      http.get(`${TEST_API}/UserSubscriptions`, () => {
        lists++;
        return HttpResponse.json(envelope(deletes.length > 0 ? [] : [monthly]));
      }),
      http.delete(`${TEST_API}/UserSubscriptions/:id`, ({ params }) => {
        deletes.push(String(params['id']));
        return HttpResponse.json(envelope([]));
      }),
    );
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete subscription Lipid Panel' }));
    const cancelled = await screen.findByRole('alertdialog', { name: 'Delete subscription?' });
    fireEvent.click(within(cancelled).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.getByText('Lipid Panel')).toBeTruthy();
    // Then a confirmed delete, whose reload the test waits for: a delete sent on Cancel would have come before it.
    fireEvent.click(screen.getByRole('button', { name: 'Delete subscription Lipid Panel' }));
    const confirmed = await screen.findByRole('alertdialog', { name: 'Delete subscription?' });
    fireEvent.click(within(confirmed).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No subscriptions found.')).toBeTruthy();
    expect(deletes).toEqual(['1']);
    expect(lists).toBe(2);
  });

  it("shows the server's request id beside the error as a reference for support", async () => {
    apiServer.use(
      http.get(`${TEST_API}/UserSubscriptions`, () => HttpResponse.json(envelope([monthly]))),
      http.delete(`${TEST_API}/UserSubscriptions/:id`, () =>
        HttpResponse.json(failure('x'), { status: 500, headers: { 'x-request-id': '7d1c0b9e-req' } }),
      ),
    );
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete subscription Lipid Panel' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete subscription?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Failed to delete subscription')).toBeTruthy();
    expect(within(alert).getByText('Reference: 7d1c0b9e-req')).toBeTruthy();
  });

  it('shows "Failed to delete subscription" when the server fails', async () => {
    apiServer.use(
      http.get(`${TEST_API}/UserSubscriptions`, () => HttpResponse.json(envelope([monthly]))),
      http.delete(`${TEST_API}/UserSubscriptions/:id`, () => HttpResponse.json(failure('x'), { status: 500 })),
    );
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete subscription Lipid Panel' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete subscription?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to delete subscription');
    expect(screen.getByText('Lipid Panel')).toBeTruthy();
  });
});
