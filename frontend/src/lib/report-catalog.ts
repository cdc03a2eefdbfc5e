/**
 * The report catalog as the server writes it for the web app (`src/api/report-catalog.json`,
 * generated from common's catalog, `searchdeck_common::report::catalog`): the metrics in the
 * spec's order (the common ones first) with how each shows, the chart's metrics in the
 * chart's order, the columns hidden by default, and the Conversions and Cohort columns fed by
 * the attribution providers (docs/api/attribution.md, "In the reports") with how each shows. Read once and checked here, so the
 * tables, the chart, the filters and the rules list the metrics the engine has. Only the
 * parts read are imported (named imports of the JSON), so the levels' column lists stay out
 * of the bundle until something reads them.
 */
import { z } from 'zod';
import { cohortColumns, conversionMetrics, graphMetrics, hiddenByDefault, metrics, proLockedGroups } from '@/api/report-catalog.json';

/** How a metric's value shows: ratios are fractions on the wire, shown as percentages. */
export const METRIC_DISPLAYS = ['count', 'money', 'percent', 'decimal'] as const;
export type MetricDisplay = (typeof METRIC_DISPLAYS)[number];

const metricSchema = z.object({
  name: z.string(),
  display: z.enum(METRIC_DISPLAYS),
  /** A sum of counts (the only metrics a rule's minimum data takes). */
  counter: z.boolean(),
  /** One of the spec's common metrics (every level's table shows them). */
  common: z.boolean(),
  /** One of the chart's metrics. */
  graph: z.boolean(),
});
export type CatalogMetric = z.infer<typeof metricSchema>;

/** The column groups the attribution providers feed (the pro_limited plan locks both). */
export const CONVERSION_GROUPS = ['Conversions', 'Cohort'] as const;
export type ConversionGroup = (typeof CONVERSION_GROUPS)[number];

/** A Conversions or Cohort column: how it shows (money in the report's currency) and its group. */
const conversionMetricSchema = z.object({
  name: z.string(),
  display: z.enum(['count', 'money', 'percent']),
  group: z.enum(CONVERSION_GROUPS),
});
export type ConversionMetric = z.infer<typeof conversionMetricSchema>;

/** The parts of the catalog read here. */
export const catalogPartsSchema = z.object({
  metrics: z.array(metricSchema),
  graphMetrics: z.array(z.string()),
  hiddenByDefault: z.array(z.string()),
  conversionMetrics: z.array(conversionMetricSchema),
  cohortColumns: z.array(z.string()),
  proLockedGroups: z.array(z.enum(CONVERSION_GROUPS)),
});

const catalog = catalogPartsSchema.parse({ metrics, graphMetrics, hiddenByDefault, conversionMetrics, cohortColumns, proLockedGroups });

/** Every metric, in the spec's order: the common metrics, then the tap/view/total split. */
export const METRICS: readonly CatalogMetric[] = catalog.metrics;
/** The metrics' names, in the same order. */
export const METRIC_NAMES: readonly string[] = METRICS.map((m) => m.name);
/** The spec's common metrics, in its order. */
export const COMMON_METRICS: readonly string[] = METRICS.filter((m) => m.common).map((m) => m.name);
/** The counters (sums of counts), in the spec's order. */
export const COUNTER_METRICS: readonly string[] = METRICS.filter((m) => m.counter).map((m) => m.name);
/** The chart's metrics, in the chart's order. */
export const GRAPH_METRICS: readonly string[] = catalog.graphMetrics;
/** The columns hidden until a column preset shows them. */
export const HIDDEN_BY_DEFAULT: readonly string[] = catalog.hiddenByDefault;

const displays = new Map(METRICS.map((m) => [m.name, m.display]));

/** How metric `name` shows, or null when it is not one of the catalog's metrics. */
export function metricDisplay(name: string): MetricDisplay | null {
  return displays.get(name) ?? null;
}

/** The names of the metrics shown as `display`, in the spec's order. */
export function metricsShownAs(display: MetricDisplay): string[] {
  return METRICS.filter((m) => m.display === display).map((m) => m.name);
}

/** The Conversions then the Cohort columns, in the catalog's order. */
export const CONVERSION_METRICS: readonly ConversionMetric[] = catalog.conversionMetrics;
/** The Cohort columns (revenue of the first N days after each install), D0 to D30. */
export const COHORT_COLUMNS: readonly string[] = catalog.cohortColumns;

/** The groups the pro_limited plan locks ('Upgrade to Pro to track events from your MMP.'). */
export const PRO_LOCKED_GROUPS: readonly ConversionGroup[] = catalog.proLockedGroups;

const conversions = new Map(CONVERSION_METRICS.map((m) => [m.name, m]));

/** The group of a Conversions or Cohort column, or null for any other column. */
export function conversionGroupOf(name: string): ConversionGroup | null {
  return conversions.get(name)?.group ?? null;
}

/** How column `name` shows: a metric's or a Conversions/Cohort column's display, else null. */
export function columnDisplay(name: string): MetricDisplay | null {
  return displays.get(name) ?? conversions.get(name)?.display ?? null;
}
