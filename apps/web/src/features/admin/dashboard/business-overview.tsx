import { makeStyles, mergeClasses, Select, Text, tokens } from '@fluentui/react-components';
import { todayIn } from '@ums/contracts/metrics';
import { lazy, Suspense, useId, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { ErrorBanner } from '../../../components/error-banner.js';
import { useClientConfig } from '../../../lib/client-config-context.js';
import { errorText } from '../../../lib/error-text.js';
import { useMetrics } from './api.js';
import { METRICS_VIEW } from './messages.js';
import { MetricsChart } from './metrics-chart.js';
import {
  chartFrame,
  firstOfMonth,
  HEADLINE_LABELS,
  headlines,
  membersChart,
  OVERVIEW_RANGES,
  resolveRange,
  revenueChart,
  signInsChart,
  type OverviewRange,
} from './overview-metrics.js';

// The custom range's date fields are fetched when that range is chosen: the Overview's script budget is tight.
const CustomRange = lazy(() => import('./custom-range.js'));

const useStyles = makeStyles({
  section: { display: 'grid', gap: tokens.spacingVerticalL, minWidth: 0 },
  heading: { margin: 0 },
  controls: { display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', gap: tokens.spacingHorizontalM },
  range: { display: 'grid', gap: tokens.spacingVerticalXXS },
  note: { margin: 0, color: tokens.colorNeutralForeground3 },
  headlines: {
    listStyle: 'none',
    margin: 0,
    padding: 0,
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 200px), 1fr))',
    gap: tokens.spacingHorizontalL,
  },
  headline: {
    display: 'grid',
    gap: tokens.spacingVerticalXXS,
    padding: tokens.spacingHorizontalL,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  figure: {
    fontSize: tokens.fontSizeHero700,
    lineHeight: tokens.lineHeightHero700,
    fontWeight: tokens.fontWeightSemibold,
  },
  // A figure's line, held before the numbers come.
  pending: {
    height: tokens.lineHeightHero700,
    width: '40%',
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
  },
  // Two lines, whether the change is there yet or not: the revenue's ("vs. Oct 1, 2026 to Oct 27, 2026") wraps in a
  // card a third of the page wide, and a card must not grow when it comes.
  change: { minHeight: `calc(2 * ${tokens.lineHeightBase300})` },
  up: { color: tokens.colorPaletteGreenForeground1 },
  down: { color: tokens.colorPaletteRedForeground1 },
  flat: { color: tokens.colorNeutralForeground2 },
  updating: { opacity: 0.6 },
  charts: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 440px), 1fr))',
    gap: tokens.spacingHorizontalL,
    minWidth: 0,
  },
});

/**
 * The Overview's picture of the business (issue 38): the range (kept in the address), the headline figures against the
 * previous period, members over time, revenue and sign-ins. Its figures and charts are laid out at their final size
 * at once; the chart library is fetched when a chart is about to be seen (metrics-chart.tsx).
 */
export default function BusinessOverview() {
  const styles = useStyles();
  const rangeId = useId();
  const config = useClientConfig();
  const [params, setParams] = useSearchParams();
  const today = useMemo(() => todayIn(config.businessTimeZone), [config.businessTimeZone]);
  const range = resolveRange(params, today);
  const ok = range.problem === null;
  const daily = useMetrics(ok ? { from: range.from, to: range.to, interval: 'day' } : null);
  const revenue = useMetrics(
    ok && range.revenueInterval !== 'day' ? { from: range.from, to: range.to, interval: range.revenueInterval } : null,
  );
  // This month so far and all of last month, per day: the revenue headline compares the same days of each.
  const months = useMetrics({ from: firstOfMonth(today, 1), to: today, interval: 'day' });

  const choose = (next: Record<string, string>) =>
    setParams(
      (current) => {
        const merged = new URLSearchParams(current);
        for (const [key, value] of Object.entries(next)) merged.set(key, value);
        if (merged.get('range') !== 'custom') {
          merged.delete('from');
          merged.delete('to');
        }
        return merged;
      },
      { replace: true },
    );
  const revenueData = range.revenueInterval === 'day' ? daily.data : revenue.data;
  const failure = daily.error ?? revenue.error ?? months.error;
  // Each chart is built from its own answer, so one that has its numbers keeps them (and its drawing) while another
  // waits for a new range's: 30 days to 12 months asks only the revenue again per month.
  const members = useMemo(() => (daily.data ? membersChart(daily.data) : null), [daily.data]);
  const signIns = useMemo(() => (daily.data ? signInsChart(daily.data) : null), [daily.data]);
  const revenueDrawn = useMemo(() => (revenueData ? revenueChart(revenueData) : null), [revenueData]);
  const charts = [
    members ?? chartFrame('members', 'day'),
    revenueDrawn ?? chartFrame('revenue', range.revenueInterval),
    signIns ?? chartFrame('sign-ins', 'day'),
  ];
  const figures = daily.data && months.data ? headlines(daily.data, months.data, today) : null;
  // While a new range loads, the last one stays drawn, dimmed and marked busy.
  const updating = daily.isPlaceholderData || revenue.isPlaceholderData;

  return (
    <section className={styles.section} aria-labelledby="business-heading">
      <h2 id="business-heading" className={styles.heading}>
        {METRICS_VIEW.heading}
      </h2>
      <div className={styles.controls}>
        <div className={styles.range}>
          <label htmlFor={rangeId}>{METRICS_VIEW.range}</label>
          <Select
            id={rangeId}
            value={range.range}
            onChange={(_, data) => {
              const next = data.value as OverviewRange;
              choose(next === 'custom' ? { range: next, from: range.from, to: range.to } : { range: next });
            }}
          >
            {OVERVIEW_RANGES.map((key) => (
              <option key={key} value={key}>
                {METRICS_VIEW.ranges[key]}
              </option>
            ))}
          </Select>
        </div>
        {range.range === 'custom' ? (
          <Suspense fallback={null}>
            <CustomRange
              from={params.get('from') ?? range.from}
              to={params.get('to') ?? range.to}
              problem={range.problem}
              onChange={(days) => choose({ range: 'custom', ...days })}
            />
          </Suspense>
        ) : null}
      </div>
      <Text as="p" className={styles.note}>
        {METRICS_VIEW.timeZone(config.businessTimeZone)}
      </Text>
      {failure ? (
        <ErrorBanner message={errorText(failure, METRICS_VIEW.loadFailed)} error={failure} />
      ) : (
        <>
          {/* The figures and the charts take their places at once, their numbers held by frames of the same size. A
              custom range that cannot be asked for has neither. */}
          {ok ? (
            <ul
              className={mergeClasses(styles.headlines, updating && styles.updating)}
              aria-label={METRICS_VIEW.heading}
              aria-busy={updating || !figures}
            >
              {figures
                ? figures.map((figure) => (
                    <li key={figure.label} className={styles.headline}>
                      <Text>{figure.label}</Text>
                      <Text className={styles.figure}>{figure.value}</Text>
                      <Text className={mergeClasses(styles.change, styles[figure.direction])}>{figure.change}</Text>
                    </li>
                  ))
                : HEADLINE_LABELS.map((label) => (
                    <li key={label} className={styles.headline}>
                      <Text>{label}</Text>
                      <span className={styles.pending}>
                        <span className="visually-hidden">{METRICS_VIEW.loadingChart}</span>
                      </span>
                      <span className={styles.change} />
                    </li>
                  ))}
            </ul>
          ) : null}
          {ok ? (
            <div className={mergeClasses(styles.charts, updating && styles.updating)} aria-busy={updating}>
              {charts.map((chart) => (
                <MetricsChart key={chart.id} chart={chart} />
              ))}
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}
