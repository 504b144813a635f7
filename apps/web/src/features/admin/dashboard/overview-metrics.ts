import { addDays, daysBetween, rangeProblem, type AdminMetrics, type MetricsInterval } from '@ums/contracts/metrics';
import { brown } from '../../../config/theme.js';
import { formatCount, formatShortDate, formatUsd } from '../../../lib/format.js';
import { METRICS_VIEW } from './messages.js';

/** The ranges the Overview offers; the choice (and a custom range's days) is kept in the address. */
export const OVERVIEW_RANGES = ['30d', '90d', '12m', 'custom'] as const;
export type OverviewRange = (typeof OVERVIEW_RANGES)[number];

export type ResolvedRange = {
  range: OverviewRange;
  from: string;
  to: string;
  /** What is wrong with a custom range, in the API's words; null when the range can be asked for. */
  problem: string | null;
  /** Revenue is drawn per day over a month, per week over a quarter, per month beyond. */
  revenueInterval: MetricsInterval;
};

/** The first day of the month of `day`, or of the month `monthsBack` before it. */
export const firstOfMonth = (day: string, monthsBack = 0) => {
  const [year, month] = day.split('-').map(Number) as [number, number];
  const first = new Date(Date.UTC(year, month - 1 - monthsBack, 1));
  return first.toISOString().slice(0, 10);
};

/** The range the address asks for (`range`, and `from`/`to` for a custom one), ending `today` unless custom. */
export function resolveRange(params: URLSearchParams, today: string): ResolvedRange {
  const asked = params.get('range');
  const range: OverviewRange = OVERVIEW_RANGES.includes(asked as OverviewRange) ? (asked as OverviewRange) : '30d';
  let from = addDays(today, -29);
  let to = today;
  if (range === '90d') from = addDays(today, -89);
  if (range === '12m') from = firstOfMonth(today, 11);
  if (range === 'custom') {
    from = params.get('from') ?? from;
    to = params.get('to') ?? to;
  }
  const problem = rangeProblem(from, to);
  const days = problem ? 0 : daysBetween(from, to);
  const revenueInterval: MetricsInterval = days <= 31 ? 'day' : days <= 92 ? 'week' : 'month';
  return { range, from, to, problem, revenueInterval };
}

/** The headline figures' labels, in their order: shown with a held place for each number until the numbers come. */
export const HEADLINE_LABELS = [
  METRICS_VIEW.headlines.members,
  METRICS_VIEW.headlines.activeSubscriptions,
  METRICS_VIEW.headlines.revenueThisMonth,
] as const;

export type Headline = {
  label: string;
  value: string;
  /** The change against the previous period, written out ("+12 (+1.0%) since Oct 28, 2026"). */
  change: string;
  direction: 'up' | 'down' | 'flat';
};

function change(now: number, before: number, write: (n: number) => string, since: string) {
  const delta = Math.round((now - before) * 100) / 100;
  const sign = delta > 0 ? '+' : delta < 0 ? '−' : '±';
  const percent = before > 0 ? ` (${sign}${((Math.abs(delta) / before) * 100).toFixed(1)}%)` : '';
  return {
    change: `${sign}${write(Math.abs(delta))}${percent} ${since}`,
    direction: delta > 0 ? ('up' as const) : delta < 0 ? ('down' as const) : ('flat' as const),
  };
}

/**
 * The figures at the head of the Overview: members and active subscriptions at the end of the range against the end
 * of the previous period (the range's eve), and revenue this month so far against the same days of last month.
 * `daily` is the range per day; `months` is per day from the first of last month to `today`.
 */
export function headlines(daily: AdminMetrics, months: AdminMetrics, today: string): Headline[] {
  const first = daily.buckets[0];
  const last = daily.buckets.at(-1);
  const eve = formatShortDate(addDays(daily.from, -1));
  const since = METRICS_VIEW.since(eve);
  const membersBefore = first ? first.members.total - first.members.new : 0;
  const activeBefore = first
    ? first.subscriptions.active - first.subscriptions.started + first.subscriptions.cancelled
    : 0;
  const thisMonth = firstOfMonth(today);
  const dayOfMonth = Number(today.slice(8));
  // The same days of last month, cut to its length (March 31 compares with February 1 to 28).
  const lastMonthEnd = addDays(thisMonth, -1);
  const sameDaysEnd = addDays(firstOfMonth(lastMonthEnd), Math.min(dayOfMonth, Number(lastMonthEnd.slice(8))) - 1);
  const revenue = (from: string, to: string) =>
    months.buckets
      .filter((bucket) => bucket.start >= from && bucket.start <= to)
      .reduce((sum, bucket) => sum + bucket.orders.revenue, 0);
  const revenueNow = revenue(thisMonth, today);
  const revenueBefore = revenue(firstOfMonth(lastMonthEnd), sameDaysEnd);
  const sameDays = METRICS_VIEW.sameDaysOf(formatShortDate(firstOfMonth(lastMonthEnd)), formatShortDate(sameDaysEnd));
  const [membersLabel, activeLabel, revenueLabel] = HEADLINE_LABELS;
  return [
    {
      label: membersLabel,
      value: formatCount(last?.members.total ?? 0),
      ...change(last?.members.total ?? 0, membersBefore, formatCount, since),
    },
    {
      label: activeLabel,
      value: formatCount(last?.subscriptions.active ?? 0),
      ...change(last?.subscriptions.active ?? 0, activeBefore, formatCount, since),
    },
    {
      label: revenueLabel,
      value: formatUsd(revenueNow),
      ...change(revenueNow, revenueBefore, formatUsd, sameDays),
    },
  ];
}

export type ChartKind = 'line' | 'bars' | 'stacked';

export type ChartSeries = {
  label: string;
  values: number[];
  /** How a value is written in the table, the summary and the readout. */
  write: (value: number) => string;
};

/**
 * What a chart shows before its numbers come: its title, its kind and the names of the series it draws. The Overview
 * draws each chart's frame at its final size from this, so nothing moves when the numbers and the drawing arrive.
 */
export type ChartFrame = {
  id: 'members' | 'revenue' | 'sign-ins';
  title: string;
  kind: ChartKind;
  /** The series drawn, in the legend's order. */
  legend: string[];
};

/** One chart: its frame, its periods, the series drawn and the same numbers as text. */
export type ChartData = ChartFrame & {
  interval: MetricsInterval;
  periods: { start: string; end: string }[];
  /** Drawn in this order; a stacked chart stacks each on the ones before. */
  series: ChartSeries[];
  /** Extra columns of the table and the CSV that are not drawn (the orders behind the revenue). */
  extra: ChartSeries[];
  /** What the chart shows, in a sentence or two, for those who cannot see it. */
  summary: string;
  /** Whether the values drawn are US dollars. */
  money: boolean;
  /** The CSV download's file name. */
  fileName: string;
};

/** The height of a chart's drawing, reserved by its frame before it is drawn. */
export const PLOT_HEIGHT = 240;

/**
 * The charts' colours, each at least 3:1 against the page and against the colour it is stacked on (WCAG 1.4.11):
 * the brand brown for a single series, a light brown under a dark red for sign-ins that succeeded and failed.
 */
export const CHART_COLORS = {
  single: brown[80],
  stacked: [brown[110], '#6e1419'],
  axis: '#424242',
  grid: '#e0e0e0',
} as const;

export const colorsOf = (chart: ChartFrame): readonly string[] =>
  chart.kind === 'stacked' ? CHART_COLORS.stacked : [CHART_COLORS.single];

/** The values drawn: a stacked chart draws each series on the ones before it, tallest first so all stay visible. */
export function drawnSeries(chart: ChartData) {
  const colors = colorsOf(chart);
  if (chart.kind !== 'stacked')
    return chart.series.map((series, index) => ({ values: series.values, color: colors[index]! }));
  const stacked = chart.series.map((_, level) =>
    chart.periods.map((__, index) =>
      chart.series.slice(0, level + 1).reduce((sum, series) => sum + (series.values[index] ?? 0), 0),
    ),
  );
  return stacked.map((values, level) => ({ values, color: colors[level]! })).reverse();
}

const { charts: TITLES, series: SERIES } = METRICS_VIEW;

/** A chart before its numbers come; revenue is drawn per `interval`, the others per day. */
export function chartFrame(id: ChartFrame['id'], interval: MetricsInterval): ChartFrame {
  if (id === 'members') return { id, title: TITLES.members, kind: 'line', legend: [SERIES.members] };
  if (id === 'revenue') return { id, title: TITLES.revenue[interval], kind: 'bars', legend: [SERIES.revenue] };
  return { id, title: TITLES.signIns, kind: 'stacked', legend: [SERIES.succeeded, SERIES.failed] };
}

/** How a period is named: "Nov 27, 2026", "Week of Nov 23, 2026" or "Nov 2026". */
export function periodLabel(period: { start: string }, interval: MetricsInterval): string {
  const day = formatShortDate(period.start);
  if (interval === 'day') return day;
  if (interval === 'week') return METRICS_VIEW.weekOf(day);
  return `${day.slice(0, 3)} ${period.start.slice(0, 4)}`;
}

/** When a period was, in a sentence: "on Nov 27, 2026", "in the week of Nov 23, 2026" or "in Nov 2026". */
export function periodPhrase(period: { start: string }, interval: MetricsInterval): string {
  const label = periodLabel(period, interval);
  if (interval === 'day') return METRICS_VIEW.on(label);
  return interval === 'week' ? METRICS_VIEW.inWeekOf(formatShortDate(period.start)) : METRICS_VIEW.in(label);
}

/** The period whose value is highest (the first of equals), or null when every value is 0. */
function peak(values: number[]): number | null {
  let best: number | null = null;
  values.forEach((value, index) => {
    if (value > 0 && (best === null || value > values[best]!)) best = index;
  });
  return best;
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const fileDays = (metrics: AdminMetrics) => `${metrics.from}-to-${metrics.to}`;

export function membersChart(daily: AdminMetrics): ChartData {
  const buckets = daily.buckets;
  const totals = buckets.map((bucket) => bucket.members.total);
  const fresh = buckets.map((bucket) => bucket.members.new);
  const first = buckets[0];
  const before = first ? first.members.total - first.members.new : 0;
  const most = peak(fresh);
  const frame = chartFrame('members', daily.interval);
  return {
    ...frame,
    interval: daily.interval,
    periods: buckets,
    series: [{ label: frame.legend[0]!, values: totals, write: formatCount }],
    extra: [{ label: SERIES.newMembers, values: fresh, write: formatCount }],
    summary: METRICS_VIEW.summaries.members({
      from: formatShortDate(daily.from),
      to: formatShortDate(daily.to),
      before: formatCount(before),
      after: formatCount(totals.at(-1) ?? before),
      joined: formatCount(sum(fresh)),
      busiest: most === null ? null : { day: formatShortDate(buckets[most]!.start), joined: formatCount(fresh[most]!) },
    }),
    money: false,
    fileName: `members-${fileDays(daily)}.csv`,
  };
}

export function revenueChart(metrics: AdminMetrics): ChartData {
  const buckets = metrics.buckets;
  const revenue = buckets.map((bucket) => bucket.orders.revenue);
  const orders = buckets.map((bucket) => bucket.orders.count);
  const best = peak(revenue);
  const frame = chartFrame('revenue', metrics.interval);
  return {
    ...frame,
    interval: metrics.interval,
    periods: buckets,
    series: [{ label: frame.legend[0]!, values: revenue, write: formatUsd }],
    extra: [{ label: SERIES.orders, values: orders, write: formatCount }],
    summary: METRICS_VIEW.summaries.revenue({
      from: formatShortDate(metrics.from),
      to: formatShortDate(metrics.to),
      revenue: formatUsd(sum(revenue)),
      orders: formatCount(sum(orders)),
      best:
        best === null
          ? null
          : { when: periodPhrase(buckets[best]!, metrics.interval), revenue: formatUsd(revenue[best]!) },
    }),
    money: true,
    fileName: `revenue-${fileDays(metrics)}.csv`,
  };
}

export function signInsChart(daily: AdminMetrics): ChartData {
  const buckets = daily.buckets;
  const succeeded = buckets.map((bucket) => bucket.signIns.succeeded);
  const failed = buckets.map((bucket) => bucket.signIns.failed);
  const worst = peak(failed);
  const frame = chartFrame('sign-ins', daily.interval);
  return {
    ...frame,
    interval: daily.interval,
    periods: buckets,
    series: [
      { label: frame.legend[0]!, values: succeeded, write: formatCount },
      { label: frame.legend[1]!, values: failed, write: formatCount },
    ],
    extra: [
      {
        label: SERIES.newDevices,
        values: buckets.map((bucket) => bucket.signIns.newDevices),
        write: formatCount,
      },
    ],
    summary: METRICS_VIEW.summaries.signIns({
      from: formatShortDate(daily.from),
      to: formatShortDate(daily.to),
      succeeded: formatCount(sum(succeeded)),
      failed: formatCount(sum(failed)),
      worst:
        worst === null ? null : { day: formatShortDate(buckets[worst]!.start), failed: formatCount(failed[worst]!) },
    }),
    money: false,
    fileName: `sign-ins-${fileDays(daily)}.csv`,
  };
}

/** The chart's numbers as CSV: each period's first and last day, then every series, drawn or not, unformatted. */
export function chartCsv(chart: ChartData): string {
  const columns = [...chart.series, ...chart.extra];
  const header = ['Start', 'End', ...columns.map((series) => series.label)];
  const rows = chart.periods.map((period, index) => [
    period.start,
    period.end,
    ...columns.map((series) => String(series.values[index] ?? 0)),
  ]);
  return [header, ...rows].map((row) => row.map((cell) => `"${cell.replaceAll('"', '""')}"`).join(',')).join('\r\n');
}
