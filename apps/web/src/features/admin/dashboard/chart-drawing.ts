import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { CHART_COLORS, drawnSeries, PLOT_HEIGHT, type ChartData } from './overview-metrics.js';

/** Half of a period in seconds: a bar stands centred on its period's first day with room on either side. */
const HALF_PERIOD = { day: 43_200, week: 302_400, month: 1_314_000 } as const;

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

/** A chart drawn in its box: the cursor can be put on a point, and it is taken away with the box's chart. */
export type Drawing = { showPoint: (index: number) => void; destroy: () => void };

/**
 * Draws the chart with uPlot on a canvas in `element`, as wide as the element and as high as its frame reserves
 * (`PLOT_HEIGHT`), redrawn when the element's width changes. `onPoint` hears the period under the pointer.
 * This module is fetched only when a chart is about to be seen: the page's frame and figures do not wait for it.
 */
export function drawChart(element: HTMLElement, chart: ChartData, onPoint: (index: number) => void): Drawing {
  const xs = chart.periods.map((period) => Date.parse(`${period.start}T00:00:00Z`) / 1000);
  const drawn = drawnSeries(chart);
  const half = HALF_PERIOD[chart.interval];
  const bars = chart.kind !== 'line';
  const width = () => Math.max(element.clientWidth, 200);
  const u = new uPlot(
    {
      width: width(),
      height: PLOT_HEIGHT,
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
            if (index !== null && index !== undefined) onPoint(index);
          },
        ],
      },
    },
    [xs, ...drawn.map((series) => series.values)],
    element,
  );
  // uPlot's own layer over the canvas takes the pointer; the canvas says nothing a reader needs (the summary does).
  element.querySelector('canvas')?.setAttribute('aria-hidden', 'true');
  const resize = new ResizeObserver(() => u.setSize({ width: width(), height: PLOT_HEIGHT }));
  resize.observe(element);
  return {
    showPoint(index) {
      const x = u.data[0][index]!;
      const top = Math.max(...u.data.slice(1).map((values) => Number(values[index] ?? 0)));
      u.setCursor({ left: u.valToPos(x, 'x'), top: u.valToPos(top, 'y') });
    },
    destroy() {
      resize.disconnect();
      u.destroy();
    },
  };
}
