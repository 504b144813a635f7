import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { adminMetricsSchema } from '@ums/contracts/metrics-schema';
import { addDays, daysBetween, type MetricsBucket, type MetricsInterval } from '@ums/contracts/metrics';
import { http, HttpResponse } from 'msw';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiServer, envelope, useApiServer } from '../../../test/api-server.js';
import { recordDownloads } from '../../../test/downloads.js';
import { fakeAuth, LocationProbe, renderWithProviders, signedInUser, TEST_API } from '../../../test/render.js';
import { SignOutProvider } from '../../shell/index.js';
import AdminConsole from '../admin-console.js';
import {
  CHART_COLORS,
  chartCsv,
  drawnSeries,
  headlines,
  resolveRange,
  revenueChart,
  signInsChart,
} from './overview-metrics.js';

/**
 * A business with a known history: 2 members join and 1 subscription starts every day (1,000 members and 500
 * subscriptions before Oct 29, 2026); one order a day, $10.00 in October and $20.50 in November; 5 sign-ins a day
 * succeed and 1 fails, except Nov 12, 2026, when 9 fail.
 */
function day(start: string): MetricsBucket {
  const sinceStart = daysBetween('2026-10-29', start);
  const revenue = start.startsWith('2026-10') ? 10 : 20.5;
  return {
    start,
    end: start,
    members: { total: 1000 + 2 * sinceStart, new: 2 },
    accounts: { closing: 0, deleted: 0 },
    subscriptions: { active: 500 + sinceStart, started: 1, cancelled: 0 },
    orders: { count: 1, revenue, byStatus: { Completed: { count: 1, revenue } } },
    signIns: { succeeded: 5, failed: start === '2026-11-12' ? 9 : 1, newDevices: 0 },
    catalogChanges: 0,
  };
}

/** The days from `from` to `to` as the API answers them: per day, or (week and month) summed into one bucket. */
function history(from: string, to: string, interval: MetricsInterval) {
  const days = Array.from({ length: daysBetween(from, to) }, (_, index) => day(addDays(from, index)));
  const buckets =
    interval === 'day'
      ? days
      : [
          {
            ...days.at(-1)!,
            start: from,
            members: { total: days.at(-1)!.members.total, new: 2 * days.length },
            orders: {
              count: days.length,
              revenue: days.reduce((sum, bucket) => sum + bucket.orders.revenue, 0),
              byStatus: {},
            },
          },
        ];
  return adminMetricsSchema.parse({ from, to, interval, timeZone: 'America/New_York', buckets });
}

const NOON_IN_NEW_YORK = new Date('2026-11-27T17:00:00Z');

describe('the business overview', () => {
  useApiServer();
  let asked: URLSearchParams[] = [];

  beforeEach(() => {
    vi.useFakeTimers({ now: NOON_IN_NEW_YORK, toFake: ['Date'] });
    // jsdom cannot draw on a canvas: every chart shows its table, as in a browser without one.
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
    asked = [];
    apiServer.use(
      http.get(`${TEST_API}/admin/metrics`, ({ request }) => {
        const query = new URL(request.url).searchParams;
        asked.push(query);
        return HttpResponse.json(
          envelope(history(query.get('from')!, query.get('to')!, query.get('interval') as MetricsInterval)),
        );
      }),
      http.get(`${TEST_API}/admin/overview`, () =>
        HttpResponse.json(
          envelope({ memberships: 3, discountPackages: 2, products: 9, promotionalProducts: 4, mostPromoted: [] }),
        ),
      ),
    );
  });
  afterEach(() => vi.restoreAllMocks());

  const dashboard = (groups: string[], path = '/admin') =>
    renderWithProviders(
      <SignOutProvider>
        <Routes>
          <Route path="/admin/*" element={<AdminConsole />} />
        </Routes>
        <LocationProbe />
      </SignOutProvider>,
      { auth: fakeAuth({ user: signedInUser(groups) }), path },
    );
  /** A chart once its numbers have come (its frame is on the page before them, marked busy). */
  const chart = async (title: string) => {
    const section = (await screen.findByRole('heading', { name: title, level: 3 })).closest('section')!;
    await waitFor(() => expect(section.getAttribute('aria-busy')).toBe('false'));
    return section;
  };
  /** The headline figures, once their numbers have come. */
  const headlineFigures = async () => {
    const list = await screen.findByRole('list', { name: 'The business' });
    await waitFor(() => expect(list.getAttribute('aria-busy')).toBe('false'));
    return within(list);
  };

  it('heads the last 30 days with members and subscriptions against the range’s eve and this month’s revenue against the same days of October', async () => {
    dashboard(['Admin']);
    const figures = await headlineFigures();
    const items = figures.getAllByRole('listitem').map((item) => item.textContent);
    expect(items).toEqual([
      'Members1,060+60 (+6.0%) since Oct 28, 2026',
      'Active subscriptions530+30 (+6.0%) since Oct 28, 2026',
      'Revenue this month$553.50+$283.50 (+105.0%) vs. Oct 1, 2026 to Oct 27, 2026',
    ]);
    expect(screen.getByText("Days are counted in the company's time zone, America/New_York.")).toBeTruthy();
    expect(asked.map((query) => query.toString())).toEqual(
      expect.arrayContaining([
        'from=2026-10-29&to=2026-11-27&interval=day',
        'from=2026-10-01&to=2026-11-27&interval=day',
      ]),
    );
  });

  it('lays out the figures and the three charts at once, holding their places until the numbers come into them', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    apiServer.use(
      http.get(`${TEST_API}/admin/metrics`, async ({ request }) => {
        await held;
        const query = new URL(request.url).searchParams;
        return HttpResponse.json(
          envelope(history(query.get('from')!, query.get('to')!, query.get('interval') as MetricsInterval)),
        );
      }),
    );
    dashboard(['Admin']);
    const list = await screen.findByRole('list', { name: 'The business' });
    expect(list.getAttribute('aria-busy')).toBe('true');
    // Each figure's place says, to a screen reader, that its number is on its way.
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['MembersLoading...', 'Active subscriptionsLoading...', 'Revenue this monthLoading...']);
    const frames = ['Members over time', 'Revenue per day', 'Sign-ins per day'].map((title) =>
      screen.getByRole('heading', { name: title, level: 3 }).closest('section')!,
    );
    for (const frame of frames) {
      expect(frame.getAttribute('aria-busy')).toBe('true');
      expect(within(frame).getByText('Loading...')).toBeTruthy();
      expect(within(frame).getByRole('button', { name: 'Download CSV' }).getAttribute('aria-disabled')).toBe('true');
    }

    release();
    // The numbers fill the same sections: nothing is taken away and put back in another place.
    const members = await chart('Members over time');
    expect(members).toBe(frames[0]);
    expect(within(members).getByText(/^Members went from 1,000 before Oct 29, 2026/)).toBeTruthy();
    expect((await headlineFigures()).getAllByRole('listitem')[0]!.textContent).toBe(
      'Members1,060+60 (+6.0%) since Oct 28, 2026',
    );
  });

  it('draws members, revenue per day and sign-ins with a summary in words of each', async () => {
    dashboard(['Admin']);
    expect(
      within(await chart('Members over time')).getByText(
        'Members went from 1,000 before Oct 29, 2026 to 1,060 on Nov 27, 2026, with 60 new members in the range; the most in one day were 2 on Oct 29, 2026.',
      ),
    ).toBeTruthy();
    expect(
      within(await chart('Revenue per day')).getByText(
        'Revenue from Oct 29, 2026 to Nov 27, 2026 was $583.50 from 30 orders; the highest was $20.50 on Nov 1, 2026.',
      ),
    ).toBeTruthy();
    expect(
      within(await chart('Sign-ins per day')).getByText(
        'From Oct 29, 2026 to Nov 27, 2026, 150 sign-ins succeeded and 38 failed; the most failures in one day were 9 on Nov 12, 2026. Sign-in activity is kept 90 days.',
      ),
    ).toBeTruthy();
  });

  it('shows each chart’s numbers as a table when the browser cannot draw, the same a CSV download saves', async () => {
    const saved = recordDownloads();
    dashboard(['Admin']);
    const signIns = await chart('Sign-ins per day');
    expect(within(signIns).queryByRole('button', { name: 'Show as table' })).toBeNull();
    const table = within(within(signIns).getByRole('region', { name: 'Sign-ins per day: show as table' }));
    expect(table.getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'Day',
      'Succeeded',
      'Failed',
      'New devices',
    ]);
    const nov12 = table.getByRole('rowheader', { name: 'Nov 12, 2026' }).closest('tr')!;
    expect(
      within(nov12)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['5', '9', '0']);

    fireEvent.click(within(signIns).getByRole('button', { name: 'Download CSV' }));
    expect(saved.map((file) => file.name)).toEqual(['sign-ins-2026-10-29-to-2026-11-27.csv']);
    const csv = (await saved[0]!.blob.text()).split('\r\n');
    expect(csv[0]).toBe('"Start","End","Succeeded","Failed","New devices"');
    expect(csv).toContain('"2026-11-12","2026-11-12","5","9","0"');
    expect(csv).toHaveLength(31);
  });

  it('keeps the range in the address: 12 months asks for whole months since December and draws revenue per month', async () => {
    dashboard(['Admin']);
    const range = await screen.findByRole('combobox', { name: 'Range' });
    fireEvent.change(range, { target: { value: '12m' } });
    expect(await chart('Revenue per month')).toBeTruthy();
    expect(screen.getByRole('status', { name: 'location' }).textContent).toBe('/admin?range=12m');
    expect(asked.map((query) => query.toString())).toEqual(
      expect.arrayContaining([
        'from=2025-12-01&to=2026-11-27&interval=day',
        'from=2025-12-01&to=2026-11-27&interval=month',
      ]),
    );
  });

  it('opens a custom range from the address and says what is wrong with one that ends before it starts, asking nothing', async () => {
    dashboard(['Admin'], '/admin?range=custom&from=2026-11-20&to=2026-11-01');
    expect(await screen.findByText('The range starts after it ends: from must be on or before to')).toBeTruthy();
    expect((screen.getByLabelText('From') as HTMLInputElement).value).toBe('2026-11-20');
    expect(asked.some((query) => query.get('from') === '2026-11-20')).toBe(false);
    // Nothing is on its way: no figures or charts wait for numbers that will not come.
    expect(screen.queryByRole('list', { name: 'The business' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Revenue per day', level: 3 })).toBeNull();
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-11-26' } });
    expect(await chart('Revenue per day')).toBeTruthy();
    expect(asked.map((query) => query.toString())).toContain('from=2026-11-20&to=2026-11-26&interval=day');
  });

  it('shows a chart’s numbers as its table when the drawing code cannot be fetched', async () => {
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue({} as unknown as RenderingContext);
    vi.doMock('./chart-drawing.js', () => {
      throw new Error('The chart code could not be fetched');
    });
    try {
      dashboard(['Admin']);
      const members = await chart('Members over time');
      const table = await within(members).findByRole('region', { name: 'Members over time: show as table' });
      expect(within(table).getByRole('rowheader', { name: 'Nov 27, 2026' })).toBeTruthy();
      expect(within(members).getByRole('button', { name: 'Show as table' }).getAttribute('aria-pressed')).toBe('true');
    } finally {
      vi.doUnmock('./chart-drawing.js');
    }
  });

  it('shows Catalog the catalog’s figures and no business charts, asking no series', async () => {
    dashboard(['Catalog']);
    expect(await screen.findByRole('heading', { name: 'Catalog', level: 2 })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'The business' })).toBeNull();
    expect(asked).toEqual([]);
  });
});

describe('the overview’s figures', () => {
  it('compares March 31’s revenue with February 1 to 28, the days February has', () => {
    const months = history('2027-02-01', '2027-03-31', 'day');
    const revenue = headlines(history('2027-03-02', '2027-03-31', 'day'), months, '2027-03-31')[2]!;
    expect(revenue.change).toMatch(/ vs\. Feb 1, 2027 to Feb 28, 2027$/);
  });

  it('answers a range per day up to 31 days, per week up to 92 and per month beyond', () => {
    const at = (query: string) => resolveRange(new URLSearchParams(query), '2026-11-27');
    expect(at('')).toMatchObject({ range: '30d', from: '2026-10-29', to: '2026-11-27', revenueInterval: 'day' });
    expect(at('range=90d')).toMatchObject({ from: '2026-08-30', revenueInterval: 'week' });
    expect(at('range=12m')).toMatchObject({ from: '2025-12-01', revenueInterval: 'month' });
    expect(at('range=nonsense')).toMatchObject({ range: '30d' });
    expect(at('range=custom&from=2024-11-26&to=2026-11-27').problem).toBe(
      'The range is at most 2 years (731 days); this one is 732 days: choose a shorter range or a later from',
    );
    expect(at('range=custom&from=2026-02-30&to=2026-11-27').problem).toBe(
      'Give a date as YYYY-MM-DD, such as 2026-11-27',
    );
  });

  it('writes revenue in the CSV as the API answers it, each field quoted', () => {
    const csv = chartCsv(revenueChart(history('2026-10-30', '2026-11-01', 'day'))).split('\r\n');
    expect(csv).toEqual([
      '"Start","End","Revenue (USD)","Orders"',
      '"2026-10-30","2026-10-30","10","1"',
      '"2026-10-31","2026-10-31","10","1"',
      '"2026-11-01","2026-11-01","20.5","1"',
    ]);
  });

  it('stacks failed sign-ins on those that succeeded in colours 3:1 apart from each other and from the page', () => {
    // Nov 1 and 2: 5 succeeded and 1 failed each. The stack is drawn tallest first: all sign-ins in the failed
    // colour, then those that succeeded over them in theirs.
    expect(drawnSeries(signInsChart(history('2026-11-01', '2026-11-02', 'day')))).toEqual([
      { values: [6, 6], color: CHART_COLORS.stacked[1] },
      { values: [5, 5], color: CHART_COLORS.stacked[0] },
    ]);
    const white = '#ffffff';
    const [succeeded, failed] = CHART_COLORS.stacked;
    expect(contrast(CHART_COLORS.single, white)).toBeGreaterThanOrEqual(3);
    expect(contrast(succeeded, white)).toBeGreaterThanOrEqual(3);
    expect(contrast(failed, white)).toBeGreaterThanOrEqual(3);
    expect(contrast(succeeded, failed)).toBeGreaterThanOrEqual(3);
  });
});

/** WCAG's contrast ratio of two colours written #rrggbb. */
function contrast(one: string, other: string) {
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((at) => {
      const channel = parseInt(hex.slice(at, at + 2), 16) / 255;
      return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(one), luminance(other)].sort((a, b) => b - a) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}
