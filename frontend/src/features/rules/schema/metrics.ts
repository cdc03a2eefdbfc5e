/**
 * The metrics a rule's conditions and guardrails take (the report catalog's, from
 * `@/lib/report-catalog`, the keywords' popularity, and the Conversions and Cohort columns the
 * attribution providers feed), and the entity amounts a comparison takes.
 *
 * Everything about the Conversions and Cohort metrics is read from the catalog
 * (`CONVERSION_METRICS`: name, display, group), so a column the server adds there (ROAS D7…)
 * is offered by the rule editor once the catalog is regenerated: its display says how its
 * value is typed (a count whole, money in the rule's currency, a percent as the ratios are),
 * its group where the pickers list it, and a Cohort metric's `D<N>` suffix the age its
 * installs need (`cohortDays`).
 */
import { COUNTER_METRICS as CATALOG_COUNTERS, CONVERSION_METRICS, conversionGroupOf, METRIC_NAMES, metricsShownAs, type ConversionGroup } from '@/lib/report-catalog';
import { LEVELS, type RuleLevel } from './vocabulary';

/**
 * The levels whose rows have conversions: campaigns, ad groups and keywords. Search terms have
 * none (Apple's attribution payload names keywords, not search terms), so the server refuses
 * them there.
 */
export const CONVERSION_LEVELS: readonly RuleLevel[] = ['CAMPAIGNS', 'ADGROUPS', 'KEYWORDS'];
export const hasConversions = (level: RuleLevel) => CONVERSION_LEVELS.includes(level);

/** The Conversions then the Cohort metrics, in the catalog's order. */
export const CONVERSION_RULE_METRICS: readonly string[] = CONVERSION_METRICS.map((m) => m.name);
const conversionNames = new Set(CONVERSION_RULE_METRICS);
export const isConversionMetric = (metric: string) => conversionNames.has(metric);
/** Conversions counts (tracked installs, trials, purchases): whole numbers, and minimum data. */
const CONVERSION_COUNTS: readonly string[] = CONVERSION_METRICS.filter((m) => m.display === 'count').map((m) => m.name);
export const isConversionCount = (metric: string) => CONVERSION_COUNTS.includes(metric);

/** The picker's heading of a metric: the Apple Ads metrics, Conversions or Cohort. */
export type MetricGroup = 'Metrics' | ConversionGroup;
export const metricGroupOf = (metric: string): MetricGroup => conversionGroupOf(metric) ?? 'Metrics';

/**
 * The days a Cohort metric's installs must be old before it is judged (`roasD7`,
 * `revenueD7`: 7), or null for any other metric. Such a metric counts an install of day d
 * once day d + N has ended, so a rule's window must start N + 1 or more days ago.
 */
export function cohortDays(metric: string): number | null {
  if (conversionGroupOf(metric) !== 'Cohort') return null;
  const days = /D(\d+)$/.exec(metric)?.[1];
  return days === undefined ? null : Number(days);
}

/** Counters: summed over the window (the only metrics `minData` takes), in the spec's order. */
export const COUNTER_METRICS: readonly string[] = [...CATALOG_COUNTERS, ...CONVERSION_COUNTS];
/** Money metrics, in the campaign group's currency. */
export const MONEY_METRICS: readonly string[] = [...metricsShownAs('money'), ...CONVERSION_METRICS.filter((m) => m.display === 'money').map((m) => m.name)];
/** Ratios: fractions on the wire, percentages on the screen (ROAS 1.5 is 150 %). */
export const RATIO_METRICS: readonly string[] = [...metricsShownAs('percent'), ...CONVERSION_METRICS.filter((m) => m.display === 'percent').map((m) => m.name)];

/**
 * The metrics a condition takes, in the order the picker lists them: the report catalog's
 * (the spec's order), the keywords' popularity, then the Conversions and Cohort metrics (only
 * where a level has them, `metricsAt`).
 */
export const METRICS: readonly string[] = [...METRIC_NAMES, 'popularity', ...CONVERSION_RULE_METRICS];

export const isRatio = (metric: string) => RATIO_METRICS.includes(metric);
export const isMoneyMetric = (metric: string) => MONEY_METRICS.includes(metric);
export const isCounter = (metric: string) => COUNTER_METRICS.includes(metric);

/** Whether `level` has `metric` (popularity at keywords and search terms, conversions not at search terms). */
export function levelHas(level: RuleLevel, metric: string): boolean {
  if (metric === 'popularity') return level === 'KEYWORDS' || level === 'SEARCHTERMS';
  if (isConversionMetric(metric)) return hasConversions(level);
  return METRICS.includes(metric);
}

/** The metrics a condition takes at `level`. */
export function metricsAt(level: RuleLevel): string[] {
  return METRICS.filter((m) => levelHas(level, m));
}

/** The counters `minData` takes at `level`. */
export function countersAt(level: RuleLevel): string[] {
  return COUNTER_METRICS.filter((m) => levelHas(level, m));
}

/** The entity amounts a `compare` condition takes as `other`, and the levels that have them. */
export const OTHER_AMOUNTS: Record<string, readonly RuleLevel[]> = {
  bid: ['KEYWORDS'],
  defaultBid: ['ADGROUPS', 'KEYWORDS'],
  cpaGoal: ['ADGROUPS', 'KEYWORDS'],
  dailyBudget: LEVELS,
  targetCpa: LEVELS,
  targetCpt: LEVELS,
};

export function othersAt(level: RuleLevel): string[] {
  return [...Object.keys(OTHER_AMOUNTS).filter((o) => OTHER_AMOUNTS[o]?.includes(level)), ...metricsAt(level)];
}
