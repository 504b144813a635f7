import { Button, makeStyles, ToggleButton, tokens } from '@fluentui/react-components';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { saveFile } from '../../../lib/download.js';
import { brown } from '../../../config/theme.js';
import { METRICS_VIEW } from './messages.js';
import { chartCsv, periodLabel, type ChartData } from './overview-metrics.js';

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

const HEIGHT = 240;
/** Half of a period in seconds: a bar stands centred on its period's first day with room on either side. */
const HALF_PERIOD = { day: 43_200, week: 302_400, month: 1_314_000 } as const;

const useStyles = makeStyles({
  chart: {
    display: 'grid',
    gap: tokens.spacingVerticalS,
    padding: tokens.spacingHorizontalL,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground1,
    minWidth: 0,
  },
  header: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalS,
  },
  title: { margin: 0, fontSize: tokens.fontSizeBase400 },
  actions: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
  summary: { margin: 0, color: tokens.colorNeutralForeground2 },
  plot: {
    minHeight: `${HEIGHT}px`,
    // The canvas keeps its last width until the observer redraws it: it must not widen the page meanwhile.
    minWidth: 0,
    overflow: 'hidden',
    borderRadius: tokens.borderRadiusMedium,
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '2px' },
  },
  legend: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalM,
    listStyle: 'none',
    margin: 0,
    padding: 0,
  },
  key: { display: 'inline-flex', alignItems: 'center', gap: tokens.spacingHorizontalXS },
  swatch: { width: '12px', height: '12px', borderRadius: '2px', display: 'inline-block' },
  readout: { margin: 0, minHeight: tokens.lineHeightBase300, fontSize: tokens.fontSizeBase300 },
  tableBox: {
    maxHeight: '320px',
    overflowY: 'auto',
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}` },
  },
  table: {
    width: '100%',
    borderCollapse: 'collapse',
    fontVariantNumeric: 'tabular-nums',
    '& th, & td': {
      padding: `${tokens.spacingVerticalXXS} ${tokens.spacingHorizontalS}`,
      borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
    },
    '& thead th': {
      position: 'sticky',
      top: 0,
      backgroundColor: tokens.colorNeutralBackground1,
      textAlign: 'start',
    },
    '& td': { textAlign: 'end' },
  },
});

const colorsOf = (chart: ChartData): readonly string[] =>
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

/** An axis label: short ("1.5k", "$250"), and none between whole numbers of a count. */
function axisLabel(value: number, money: boolean): string {
  if (!money && !Number.isInteger(value)) return '';
  const short =
    value >= 1e6
      ? `${+(value / 1e6).toFixed(1)}M`
      : value >= 1e3
        ? `${+(value / 1e3).toFixed(1)}k`
        : `${+value.toFixed(2)}`;
  return money ? `$${short}` : short;
}

/** Whether this browser draws on a canvas (a page without one shows the chart's table instead). */
const canDraw = () => typeof HTMLCanvasElement !== 'undefined' && !!document.createElement('canvas').getContext('2d');

/**
 * One chart of the Overview: a title, its summary in words, the drawing (uPlot on a canvas) that the arrow keys read
 * point by point, a legend, "Show as table" with the same numbers, and the series as CSV.
 */
export function MetricsChart({ chart }: { chart: ChartData }) {
  const styles = useStyles();
  const id = useId();
  const [drawable] = useState(canDraw);
  const [asTable, setAsTable] = useState(!drawable);
  const [point, setPoint] = useState<number | null>(null);
  // The readout is announced when the keys move it, not while a pointer sweeps across the chart.
  const [announce, setAnnounce] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const colors = colorsOf(chart);
  const last = chart.periods.length - 1;

  // A new range has other points: the readout starts again (state adjusted while rendering, as React advises).
  const [drawnFor, setDrawnFor] = useState(chart);
  if (drawnFor !== chart) {
    setDrawnFor(chart);
    setPoint(null);
  }

  useEffect(() => {
    const element = box.current;
    if (asTable || !element) return;
    const xs = chart.periods.map((period) => Date.parse(`${period.start}T00:00:00Z`) / 1000);
    const drawn = drawnSeries(chart);
    const half = HALF_PERIOD[chart.interval];
    const bars = chart.kind !== 'line';
    const u = new uPlot(
      {
        width: Math.max(element.clientWidth, 200),
        height: HEIGHT,
        // The buckets' days are calendar days: drawn as they are named, whatever the reader's time zone.
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        legend: { show: false },
        cursor: { drag: { x: false, y: false, setScale: false }, points: { show: !bars } },
        scales: {
          x: { time: true, range: (_, min, max) => (bars || min === max ? [min - half, max + half] : [min, max]) },
          // Bars stand on 0; a line of totals is drawn over its own span, so its change shows.
          y: {
            range: (_, min, max) => {
              if (bars) return [0, max > 0 ? max * 1.1 : 1];
              const pad = Math.max((max - min) * 0.1, 1);
              return [Math.max(0, Math.floor(min - pad)), Math.ceil(max + pad)];
            },
          },
        },
        axes: [
          { stroke: CHART_COLORS.axis, grid: { stroke: CHART_COLORS.grid, width: 1 }, ticks: { show: false } },
          {
            stroke: CHART_COLORS.axis,
            grid: { stroke: CHART_COLORS.grid, width: 1 },
            ticks: { show: false },
            size: 64,
            values: (_, splits) => splits.map((value) => axisLabel(value, chart.money)),
          },
        ],
        series: [
          {},
          ...drawn.map(({ color }) => ({
            stroke: color,
            fill: bars ? color : undefined,
            width: bars ? 0 : 2,
            paths: bars ? uPlot.paths.bars!({ size: [0.7, 48], align: 0 }) : undefined,
            points: { show: false },
          })),
        ],
        hooks: {
          setCursor: [
            (self) => {
              const index = self.cursor.idx;
              if (index !== null && index !== undefined) setPoint(index);
            },
          ],
        },
      },
      [xs, ...drawn.map((series) => series.values)],
      element,
    );
    // uPlot's own layer over the canvas takes the pointer; the canvas says nothing a reader needs (the summary does).
    element.querySelector('canvas')?.setAttribute('aria-hidden', 'true');
    plot.current = u;
    const resize = new ResizeObserver(() => u.setSize({ width: Math.max(element.clientWidth, 200), height: HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      u.destroy();
      plot.current = null;
    };
  }, [asTable, chart]);

  const show = (index: number) => {
    const u = plot.current;
    setPoint(index);
    if (!u) return;
    const x = u.data[0][index]!;
    const top = Math.max(...u.data.slice(1).map((values) => Number(values[index] ?? 0)));
    u.setCursor({ left: u.valToPos(x, 'x'), top: u.valToPos(top, 'y') });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const current = point === null ? -1 : Math.min(point, last);
    const next =
      event.key === 'ArrowRight'
        ? Math.min(current + 1, last)
        : event.key === 'ArrowLeft'
          ? Math.max(current === -1 ? last : current - 1, 0)
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    setAnnounce(true);
    show(next);
  };

  const columns = [...chart.series, ...chart.extra];
  const readout =
    point === null || !chart.periods[point]
      ? ''
      : METRICS_VIEW.point(
          periodLabel(chart.periods[point], chart.interval),
          columns.map((series) => `${series.label} ${series.write(series.values[point] ?? 0)}`).join(', '),
        );
  const titleId = `${id}-title`;
  const summaryId = `${id}-summary`;
  const keysId = `${id}-keys`;

  return (
    <section className={styles.chart} aria-labelledby={titleId} data-chart={chart.id}>
      <div className={styles.header}>
        <h3 id={titleId} className={styles.title}>
          {chart.title}
        </h3>
        <div className={styles.actions}>
          {drawable ? (
            <ToggleButton size="small" checked={asTable} onClick={() => setAsTable((shown) => !shown)}>
              {METRICS_VIEW.showTable}
            </ToggleButton>
          ) : null}
          <Button
            size="small"
            onClick={() => saveFile(new Blob([chartCsv(chart)], { type: 'text/csv;charset=utf-8' }), chart.fileName)}
          >
            {METRICS_VIEW.downloadCsv}
          </Button>
        </div>
      </div>
      <p id={summaryId} className={styles.summary}>
        {chart.summary}
      </p>
      {asTable ? (
        <div
          className={styles.tableBox}
          role="region"
          aria-label={`${chart.title}: ${METRICS_VIEW.showTable.toLowerCase()}`}
          tabIndex={0}
        >
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">{METRICS_VIEW.period[chart.interval]}</th>
                {columns.map((series) => (
                  <th key={series.label} scope="col">
                    {series.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {chart.periods.map((period, index) => (
                <tr key={period.start}>
                  <th scope="row">{periodLabel(period, chart.interval)}</th>
                  {columns.map((series) => (
                    <td key={series.label}>{series.write(series.values[index] ?? 0)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <>
          <div
            ref={box}
            className={styles.plot}
            role="group"
            aria-roledescription="chart"
            aria-labelledby={titleId}
            aria-describedby={`${summaryId} ${keysId}`}
            tabIndex={0}
            onKeyDown={onKeyDown}
            onFocus={() => {
              setAnnounce(true);
              if (point === null) show(last);
            }}
            onPointerMove={() => setAnnounce(false)}
          />
          <p id={keysId} hidden>
            {METRICS_VIEW.keys}
          </p>
          <ul className={styles.legend}>
            {chart.series.map((series, index) => (
              <li key={series.label} className={styles.key}>
                <span className={styles.swatch} style={{ backgroundColor: colors[index] }} aria-hidden="true" />
                {series.label}
              </li>
            ))}
          </ul>
          <p className={styles.readout} aria-live={announce ? 'polite' : 'off'}>
            {readout}
          </p>
        </>
      )}
    </section>
  );
}
