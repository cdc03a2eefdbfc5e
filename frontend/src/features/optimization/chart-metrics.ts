/**
 * The chart's metrics (spec §2 Tables, graph metrics): the report's daily points can show
 * any two of these, the first on the left axis and the second on the right.
 */
import type { ColumnKind } from './columns';

export const GRAPH_METRICS = [
  'impressions',
  'taps',
  'tapInstalls',
  'viewInstalls',
  'totalInstalls',
  'tapNewDownloads',
  'viewNewDownloads',
  'totalNewDownloads',
  'tapRedownloads',
  'viewRedownloads',
  'totalRedownloads',
  'ttr',
  'tapAvgCPA',
  'viewAvgCPA',
  'totalAvgCPA',
  'avgCPT',
  'localSpend',
  'tapConversionRate',
  'totalConversionRate',
  'IPM',
  'avgCPM',
] as const;
export type GraphMetric = (typeof GRAPH_METRICS)[number];
export type ChartMetrics = [GraphMetric, GraphMetric];

export const DEFAULT_CHART_METRICS: ChartMetrics = ['localSpend', 'totalInstalls'];

const MONEY = new Set<string>(['tapAvgCPA', 'viewAvgCPA', 'totalAvgCPA', 'avgCPT', 'localSpend', 'avgCPM']);
const PERCENT = new Set<string>(['ttr', 'tapConversionRate', 'totalConversionRate']);

/** How a graph metric's values show on its axis and in the legend. */
export function graphKind(metric: GraphMetric): ColumnKind {
  if (MONEY.has(metric)) return 'money';
  if (PERCENT.has(metric)) return 'percent';
  return metric === 'IPM' ? 'decimal' : 'count';
}

export function isGraphMetric(value: string): value is GraphMetric {
  return (GRAPH_METRICS as readonly string[]).includes(value);
}

/** The two metrics of the address's `chart` parameter, else the default pair. */
export function readChartMetrics(text: string | null): ChartMetrics {
  const parts = (text ?? '').split(',');
  if (parts.length !== 2) return DEFAULT_CHART_METRICS;
  const [left, right] = parts as [string, string];
  return isGraphMetric(left) && isGraphMetric(right) && left !== right ? [left, right] : DEFAULT_CHART_METRICS;
}
