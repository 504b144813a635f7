import { Button, makeStyles, mergeClasses, ToggleButton, tokens } from '@fluentui/react-components';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { saveFile } from '../../../lib/download.js';
import { whenNear } from '../../../lib/when-near.js';
import { METRICS_VIEW } from './messages.js';
import { chartCsv, colorsOf, periodLabel, PLOT_HEIGHT, type ChartData, type ChartFrame } from './overview-metrics.js';
import type { Drawing } from './chart-drawing.js';

/**
 * The drawing code (uPlot), fetched once the first chart is about to be seen and kept for every drawing after it. A
 * fetch that failed (offline, or a release that replaced the file) is forgotten, so the next chart asks again.
 */
let drawingCode: Promise<typeof import('./chart-drawing.js')> | null = null;
const loadDrawing = () =>
  (drawingCode ??= import('./chart-drawing.js').catch((error: unknown) => {
    drawingCode = null;
    throw error;
  }));

/** Runs `task` when the browser is idle (soon at the latest), in a task of its own; the answer cancels it. */
function whenIdle(task: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(task, { timeout: 500 });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(task, 0);
  return () => clearTimeout(handle);
}

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
  // Under the drawing, and as high as a summary before the numbers come (three lines, four on a phone): a longer
  // one moves nothing above it.
  summary: {
    margin: 0,
    minHeight: `calc(3 * ${tokens.lineHeightBase300})`,
    color: tokens.colorNeutralForeground2,
    '@media (max-width: 600px)': { minHeight: `calc(4 * ${tokens.lineHeightBase300})` },
  },
  waiting: { color: tokens.colorNeutralForeground3 },
  plot: {
    height: `${PLOT_HEIGHT}px`,
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

/** Whether this browser draws on a canvas (a page without one shows the chart's table instead). */
const canDraw = () => typeof HTMLCanvasElement !== 'undefined' && !!document.createElement('canvas').getContext('2d');

/**
 * One chart of the Overview: a title, the drawing (uPlot on a canvas) that the arrow keys read point by point, a
 * legend, its summary in words, "Show as table" with the same numbers, and the series as CSV. Given only its frame
 * (the numbers are on their way) it takes the size it will have, so nothing on the page moves when they come; the
 * drawing's code is fetched when the chart is about to be seen, and each chart is drawn in a task of its own.
 */
export function MetricsChart({ chart }: { chart: ChartFrame | ChartData }) {
  const styles = useStyles();
  const id = useId();
  const data = 'periods' in chart ? chart : null;
  const [drawable] = useState(canDraw);
  const [asTable, setAsTable] = useState(!drawable);
  const [point, setPoint] = useState<number | null>(null);
  // The readout is announced when the keys move it, not while a pointer sweeps across the chart.
  const [announce, setAnnounce] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const drawing = useRef<Drawing | null>(null);
  const colors = colorsOf(chart);
  const last = (data?.periods.length ?? 0) - 1;

  // A new range has other points: the readout starts again (state adjusted while rendering, as React advises).
  const [drawnFor, setDrawnFor] = useState(data);
  if (drawnFor !== data) {
    setDrawnFor(data);
    setPoint(null);
  }

  // The point the keys have chosen, for a drawing that comes after them.
  const chosen = useRef(point);
  useEffect(() => {
    chosen.current = point;
  }, [point]);

  useEffect(() => {
    const element = box.current;
    if (asTable || !data || !element) return;
    let cancelIdle = () => {};
    let gone = false;
    // Drawn once it is near the screen, when the browser is idle: the page's first paint and its figures wait for
    // neither the chart library nor the drawing. The library's code runs in one task and each drawing in another.
    const stopWatching = whenNear(element, () => {
      loadDrawing().then(
        ({ drawChart }) => {
          if (gone) return;
          cancelIdle = whenIdle(() => {
            drawing.current = drawChart(element, data, setPoint);
            if (chosen.current !== null) drawing.current.showPoint(chosen.current);
          });
        },
        // Without its drawing code the chart shows its numbers as the table, as in a browser that cannot draw.
        () => {
          if (!gone) setAsTable(true);
        },
      );
    });
    return () => {
      gone = true;
      stopWatching();
      cancelIdle();
      drawing.current?.destroy();
      drawing.current = null;
    };
  }, [asTable, data]);

  const show = (index: number) => {
    setPoint(index);
    drawing.current?.showPoint(index);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (last < 0) return;
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

  const columns = data ? [...data.series, ...data.extra] : [];
  const readout =
    point === null || !data?.periods[point]
      ? ''
      : METRICS_VIEW.point(
          periodLabel(data.periods[point], data.interval),
          columns.map((series) => `${series.label} ${series.write(series.values[point] ?? 0)}`).join(', '),
        );
  const titleId = `${id}-title`;
  const summaryId = `${id}-summary`;
  const keysId = `${id}-keys`;

  return (
    <section className={styles.chart} aria-labelledby={titleId} aria-busy={!data} data-chart={chart.id}>
      <div className={styles.header}>
        <h3 id={titleId} className={styles.title}>
          {chart.title}
        </h3>
        <div className={styles.actions}>
          {drawable ? (
            <ToggleButton size="small" checked={asTable} disabled={!data} onClick={() => setAsTable((shown) => !shown)}>
              {METRICS_VIEW.showTable}
            </ToggleButton>
          ) : null}
          <Button
            size="small"
            disabledFocusable={!data}
            onClick={() =>
              data && saveFile(new Blob([chartCsv(data)], { type: 'text/csv;charset=utf-8' }), data.fileName)
            }
          >
            {METRICS_VIEW.downloadCsv}
          </Button>
        </div>
      </div>
      {asTable && data ? (
        <div
          className={styles.tableBox}
          role="region"
          aria-label={`${chart.title}: ${METRICS_VIEW.showTable.toLowerCase()}`}
          tabIndex={0}
        >
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">{METRICS_VIEW.period[data.interval]}</th>
                {columns.map((series) => (
                  <th key={series.label} scope="col">
                    {series.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.periods.map((period, index) => (
                <tr key={period.start}>
                  <th scope="row">{periodLabel(period, data.interval)}</th>
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
            aria-describedby={data ? `${summaryId} ${keysId}` : summaryId}
            tabIndex={data ? 0 : undefined}
            onKeyDown={onKeyDown}
            onFocus={() => {
              setAnnounce(true);
              if (point === null && last >= 0) show(last);
            }}
            onPointerMove={() => setAnnounce(false)}
          />
          <p id={keysId} hidden>
            {METRICS_VIEW.keys}
          </p>
          <ul className={styles.legend}>
            {chart.legend.map((label, index) => (
              <li key={label} className={styles.key}>
                <span className={styles.swatch} style={{ backgroundColor: colors[index] }} aria-hidden="true" />
                {label}
              </li>
            ))}
          </ul>
          <p className={styles.readout} aria-live={announce ? 'polite' : 'off'}>
            {readout}
          </p>
        </>
      )}
      <p id={summaryId} className={mergeClasses(styles.summary, !data && styles.waiting)}>
        {data ? data.summary : METRICS_VIEW.loadingChart}
      </p>
    </section>
  );
}
