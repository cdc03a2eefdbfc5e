/** The metrics a rule's conditions and guardrails take, and the entity amounts a comparison takes. */
import { LEVELS, type RuleLevel } from './vocabulary';

/** Counters: summed over the window (the only metrics `minData` takes). */
export const COUNTER_METRICS = [
  'impressions',
  'taps',
  'installs',
  'newDownloads',
  'redownloads',
  'tapInstalls',
  'viewInstalls',
  'totalInstalls',
  'tapNewDownloads',
  'viewNewDownloads',
  'totalNewDownloads',
  'tapRedownloads',
  'viewRedownloads',
  'totalRedownloads',
] as const;
/** Money metrics, in the campaign group's currency. */
export const MONEY_METRICS = ['localSpend', 'avgCPT', 'avgCPM', 'avgCPA', 'tapAvgCPA', 'viewAvgCPA', 'totalAvgCPA'] as const;
/** Ratios: fractions on the wire, percentages on the screen. */
export const RATIO_METRICS = ['ttr', 'conversionRate', 'tapConversionRate', 'totalConversionRate'] as const;

/** The metrics of the report engine a condition takes, in the order the picker lists them. */
export const METRICS = [
  'localSpend',
  'impressions',
  'taps',
  'installs',
  'newDownloads',
  'redownloads',
  'ttr',
  'avgCPT',
  'avgCPM',
  'avgCPA',
  'conversionRate',
  'IPM',
  'tapInstalls',
  'viewInstalls',
  'totalInstalls',
  'tapNewDownloads',
  'viewNewDownloads',
  'totalNewDownloads',
  'tapRedownloads',
  'viewRedownloads',
  'totalRedownloads',
  'tapAvgCPA',
  'viewAvgCPA',
  'totalAvgCPA',
  'tapConversionRate',
  'totalConversionRate',
  'popularity',
] as const;

export const isRatio = (metric: string) => (RATIO_METRICS as readonly string[]).includes(metric);
export const isMoneyMetric = (metric: string) => (MONEY_METRICS as readonly string[]).includes(metric);
export const isCounter = (metric: string) => (COUNTER_METRICS as readonly string[]).includes(metric);

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
