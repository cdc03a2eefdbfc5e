/**
 * The chart's metrics (docs/product.md#2-tables, graph metrics): the report's daily points can show
 * any two of these, the first on the left axis and the second on the right. They are the
 * report catalog's (`@/lib/report-catalog`), in the chart's order.
 */
import { GRAPH_METRICS as CATALOG_GRAPH_METRICS, metricDisplay } from '@/lib/report-catalog';
import type { ColumnKind } from './columns';

export const GRAPH_METRICS = CATALOG_GRAPH_METRICS;
/** A graph metric's name: one of `GRAPH_METRICS` (`isGraphMetric` checks what the address says). */
export type GraphMetric = string;
export type ChartMetrics = [GraphMetric, GraphMetric];

export const DEFAULT_CHART_METRICS: ChartMetrics = ['localSpend', 'totalInstalls'];

/** How a graph metric's values show on its axis and in the legend. */
export function graphKind(metric: GraphMetric): ColumnKind {
  return metricDisplay(metric) ?? 'count';
}

export function isGraphMetric(value: string): value is GraphMetric {
  return GRAPH_METRICS.includes(value);
}

/** The two metrics of the address's `chart` parameter, else the default pair. */
export function readChartMetrics(text: string | null): ChartMetrics {
  const parts = (text ?? '').split(',');
  if (parts.length !== 2) return DEFAULT_CHART_METRICS;
  const [left, right] = parts as [string, string];
  return isGraphMetric(left) && isGraphMetric(right) && left !== right ? [left, right] : DEFAULT_CHART_METRICS;
}
