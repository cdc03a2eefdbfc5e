/**
 * The metrics a rule's conditions and guardrails take (the report catalog's, from
 * `@/lib/report-catalog`, and the keywords' popularity), and the entity amounts a comparison
 * takes.
 */
import { COUNTER_METRICS as CATALOG_COUNTERS, METRIC_NAMES, metricsShownAs } from '@/lib/report-catalog';
import { LEVELS, type RuleLevel } from './vocabulary';

/** Counters: summed over the window (the only metrics `minData` takes), in the spec's order. */
export const COUNTER_METRICS: readonly string[] = CATALOG_COUNTERS;
/** Money metrics, in the campaign group's currency. */
export const MONEY_METRICS: readonly string[] = metricsShownAs('money');
/** Ratios: fractions on the wire, percentages on the screen. */
export const RATIO_METRICS: readonly string[] = metricsShownAs('percent');

/**
 * The metrics a condition takes, in the order the picker lists them: the report catalog's
 * (the spec's order), then the keywords' popularity (only where a level has it, `metricsAt`).
 */
export const METRICS: readonly string[] = [...METRIC_NAMES, 'popularity'];

export const isRatio = (metric: string) => RATIO_METRICS.includes(metric);
export const isMoneyMetric = (metric: string) => MONEY_METRICS.includes(metric);
export const isCounter = (metric: string) => COUNTER_METRICS.includes(metric);

/** The metrics a condition takes at `level` (popularity only for keywords and search terms). */
export function metricsAt(level: RuleLevel): string[] {
  return METRICS.filter((m) => m !== 'popularity' || level === 'KEYWORDS' || level === 'SEARCHTERMS');
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
