/**
 * The daily chart (uPlot, loaded with this module as its own chunk, see ChartPanel): the
 * lines of the two chosen metrics, the first metric's on the left axis and the second's on
 * the right; money over several currencies has one line per currency (each on a scale of
 * its own, the axis in the units of the first currency with data), converted money is dashed. Days along
 * the bottom as DD/MM; values formatted like the table's. The legend shows the hovered
 * day's values, and the period's (the totals') while no day is hovered.
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { EMPTY, formatDate } from '@/lib/format';
import type { ChartSeries } from '../chart-series';
import { formatValue, message } from '../format-value';
import { CHART_COLORS, SPLIT_COLORS } from './chart-colors';

export interface ReportChartProps {
  /** The days of the points (YYYY-MM-DD). */
  days: string[];
  series: ChartSeries[];
  height?: number;
}

function toSeconds(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / 1000;
}

/** The UTC day of `seconds` as DD/MM/YYYY (the points are calendar days, not instants). */
function dayOf(seconds: number | null): string {
  return seconds === null ? '' : formatDate(new Date(seconds * 1000).toISOString().slice(0, 10));
}

/** Tick steps of count axes: whole numbers only (1, 2, 5, 10, 20, 50…). */
const WHOLE_STEPS = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9].flatMap((p) => [p, 2 * p, 5 * p]);

/** At most this many day labels along the bottom. */
const MAX_DAY_TICKS = 12;

/** The line an axis reads in: its first line with data (else its first line). */
function axisLine(axis: 0 | 1, all: ChartSeries[]): ChartSeries | undefined {
  const lines = all.filter((o) => o.axis === axis);
  return lines.find((o) => o.values.some((v) => v !== null && v !== 0)) ?? lines[0];
}

/** The scale of a line: its axis's, or one per currency when an axis holds several. */
function scaleOf(s: ChartSeries, all: ChartSeries[]): string {
  const base = s.axis === 0 ? 'y' : 'y2';
  const first = axisLine(s.axis, all);
  return first === s || first?.currency === s.currency ? base : `${base}:${s.currency ?? ''}`;
}

/** The colour of a line: its axis's, then further colours for the other currencies. */
function colorOf(s: ChartSeries, all: ChartSeries[]): string {
  const same = all.filter((o) => o.axis === s.axis);
  const nth = same.indexOf(s);
  return nth === 0 ? CHART_COLORS[s.axis] : SPLIT_COLORS[(s.axis * 3 + nth - 1) % SPLIT_COLORS.length]!;
}

/** The legend text of a line when no day is hovered: the period's value. */
export function periodText(s: ChartSeries): string {
  return formatValue({ field: s.metric, kind: s.kind }, s.period, s.currency);
}

export default function ReportChart({ days, series, height = 240 }: ReportChartProps) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const root = box.current;
    if (!root) return;
    const xs = days.map(toSeconds);
    const data: uPlot.AlignedData = [xs, ...series.map((s) => s.values)];
    const show = (s: ChartSeries) => (value: number | null) => (value === null ? EMPTY : formatValue({ field: s.metric, kind: s.kind }, value, s.currency));
    const axisStyle = { stroke: '#868e96', grid: { stroke: '#f1f3f5', width: 1 }, ticks: { stroke: '#dee2e6', width: 1 }, font: '11px system-ui, sans-serif' };
    const range: uPlot.Scale.Range = (_u, min, max) => [Math.min(0, min), max > 0 ? max * 1.1 : 1];
    const scales: uPlot.Scales = { x: { time: true } };
    for (const s of series) scales[scaleOf(s, series)] = { auto: true, range };
    scales.y ??= { auto: true, range };
    scales.y2 ??= { auto: true, range };
    const axisOf = (axis: 0 | 1): uPlot.Axis => {
      const first = axisLine(axis, series);
      return {
        ...axisStyle,
        scale: axis === 0 ? 'y' : 'y2',
        ...(axis === 1 ? { side: 1, grid: { show: false } } : {}),
        size: 70,
        values: (_u: uPlot, ticks: number[]) => ticks.map((v) => (first ? show(first)(v) : String(v))),
        ...(first?.kind === 'count' ? { incrs: WHOLE_STEPS } : {}),
      };
    };
    const rangeText = days.length > 0 ? `${dayOf(xs[0]!).slice(0, 5)}–${dayOf(xs[xs.length - 1]!)}` : '';
    const options: uPlot.Options = {
      width: root.clientWidth || 600,
      height,
      padding: [12, 8, 0, 8],
      cursor: { points: { size: 7 }, drag: { x: false, y: false } },
      scales,
      axes: [
        {
          ...axisStyle,
          grid: { show: false },
          // One tick per day (every n-th day on long ranges), never between days.
          splits: () => xs.filter((_, i) => i % Math.ceil(xs.length / MAX_DAY_TICKS) === 0),
          values: (_u, ticks) => ticks.map((s) => dayOf(s).slice(0, 5)),
        },
        axisOf(0),
        axisOf(1),
      ],
      series: [
        // Not hovering: the range the legend's values cover.
        { label: message('chart.day', 'Day'), value: (_u, v: number | null, _s, idx) => (idx == null ? rangeText : dayOf(v)) },
        ...series.map<uPlot.Series>((s, i) => ({
          label: s.label,
          scale: scaleOf(s, series),
          stroke: colorOf(s, series),
          width: 2,
          ...(i === 0 ? { fill: 'rgba(34,139,230,0.08)' } : {}),
          ...(s.converted ? { dash: [6, 4] } : {}),
          points: { show: days.length <= 31 },
          value: (_u, v: number | null, _sidx, idx) => (idx == null ? periodText(s) : show(s)(v)),
        })),
      ],
      legend: { live: true },
      tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
    };
    const chart = new uPlot(options, data, root);
    const resize = new ResizeObserver(() => chart.setSize({ width: root.clientWidth, height }));
    resize.observe(root);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [days, series, height]);
  return <div ref={box} data-testid="report-chart-canvas" style={{ width: '100%' }} />;
}
