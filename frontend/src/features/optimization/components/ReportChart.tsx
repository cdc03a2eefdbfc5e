/**
 * The daily chart of two graph metrics (uPlot, loaded with this module as its own chunk, see
 * ChartPanel): one line per metric, the first on the left axis, the second on the right,
 * days along the bottom as DD/MM, values formatted like the table's (money in the org's
 * currency, ratios as percentages). Hovering a day shows both values in the legend.
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatDate } from '@/lib/format';
import { graphKind, type ChartMetrics } from '../chart-metrics';
import { formatValue, message } from '../format-value';
import { CHART_COLORS } from './chart-colors';

export interface ReportChartProps {
  /** The report's graph points: `date` (YYYY-MM-DD) and the metrics. */
  points: Record<string, unknown>[];
  metrics: ChartMetrics;
  labels: [string, string];
  currency: string | null;
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

function numberOf(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return null;
}

export default function ReportChart({ points, metrics, labels, currency, height = 240 }: ReportChartProps) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const root = box.current;
    if (!root) return;
    const days = points.map((p) => toSeconds(String(p.date)));
    const data: uPlot.AlignedData = [days, ...metrics.map((m) => points.map((p) => numberOf(p[m])))];
    const show = (index: 0 | 1) => (value: number | null) =>
      value === null ? '—' : formatValue({ field: metrics[index], kind: graphKind(metrics[index]) }, value, currency);
    const tick = (index: 0 | 1) => (_u: uPlot, values: number[]) => values.map((v) => show(index)(v));
    const axisStyle = { stroke: '#868e96', grid: { stroke: '#f1f3f5', width: 1 }, ticks: { stroke: '#dee2e6', width: 1 }, font: '11px system-ui, sans-serif' };
    const options: uPlot.Options = {
      width: root.clientWidth || 600,
      height,
      padding: [12, 8, 0, 8],
      cursor: { points: { size: 7 }, drag: { x: false, y: false } },
      scales: { x: { time: true }, y: { auto: true, range: (_u, min, max) => [Math.min(0, min), max > 0 ? max * 1.1 : 1] }, y2: { auto: true, range: (_u, min, max) => [Math.min(0, min), max > 0 ? max * 1.1 : 1] } },
      axes: [
        {
          ...axisStyle,
          grid: { show: false },
          // One tick per day (every n-th day on long ranges), never between days.
          splits: () => days.filter((_, i) => i % Math.ceil(days.length / MAX_DAY_TICKS) === 0),
          values: (_u, ticks) => ticks.map((s) => dayOf(s).slice(0, 5)),
        },
        { ...axisStyle, scale: 'y', size: 70, values: tick(0), ...(graphKind(metrics[0]) === 'count' ? { incrs: WHOLE_STEPS } : {}) },
        { ...axisStyle, scale: 'y2', side: 1, size: 70, grid: { show: false }, values: tick(1), ...(graphKind(metrics[1]) === 'count' ? { incrs: WHOLE_STEPS } : {}) },
      ],
      series: [
        { label: message('chart.day', 'Day'), value: (_u, s: number | null) => dayOf(s) },
        { label: labels[0], scale: 'y', stroke: CHART_COLORS[0], width: 2, fill: 'rgba(34,139,230,0.08)', points: { show: points.length <= 31 }, value: (_u, v) => show(0)(v) },
        { label: labels[1], scale: 'y2', stroke: CHART_COLORS[1], width: 2, points: { show: points.length <= 31 }, value: (_u, v) => show(1)(v) },
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
  }, [points, metrics, labels, currency, height]);
  return <div ref={box} data-testid="report-chart-canvas" style={{ width: '100%' }} />;
}
