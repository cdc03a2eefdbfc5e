/**
 * Report filters (docs/product.md#3-filter-and-filter-preset, docs/product.md#5-filters,
 * docs/product.md#7-the-calls-it-makes reports): the web app keeps a filter as
 * `{type, condition, value, metric}` and sends it to the report call as
 * `{field, operator, values}`. Which filters a level offers, whether one is valid, how it travels
 * in the address, and how the wire shape is built all live here, free of React.
 *
 * Ratios are entered as percentages (`TTR > 5` means 5 %) and sent as the fractions the
 * report engine compares (`ttr > 0.05`); money is in the org's currency units.
 */
import { METRIC_NAMES } from '@/lib/report-catalog';
import { columnOf } from './columns';
import type { Level } from './paths';

export type FilterType = 'name' | 'status' | 'metrics' | 'tag' | 'country';
export type Condition = 'contains' | 'not_contains' | '=' | '!=' | '>' | '<' | '><' | '<>';

export interface Filter {
  type: FilterType;
  /** Unset for list filters (status, tag, country: any of the values). */
  condition?: Condition;
  /** Text for name; a list for status, tag and country; a number, or [min, max] for a range. */
  value: string | number | string[] | number[];
  /** The metric of a `metrics` filter. */
  metric?: string;
}

/** The filter as the report call takes it. */
export interface WireFilter {
  field: string;
  operator: string;
  values: (string | number)[];
}

/** Conditions of a text filter and of a metric filter. */
export const TEXT_CONDITIONS: Condition[] = ['contains', 'not_contains', '='];
export const METRIC_CONDITIONS: Condition[] = ['>', '<', '=', '!=', '><', '<>'];

/**
 * docs/product.md#7-report-filter-conditions: how a condition maps to the report call's operator.
 */
const OPERATOR: Record<Condition, string> = {
  contains: 'CONTAINS',
  not_contains: 'DOES_NOT_CONTAINS',
  '=': 'EQUALS',
  '!=': 'DOES_NOT_CONTAINS',
  '>': 'GREATER_THAN',
  '<': 'LESS_THAN',
  '><': 'IN',
  '<>': 'NOT_IN_RANGE',
};

/** The statuses a level's rows have (docs/product.md#4-statuses-shown). */
export const STATUSES: Partial<Record<Level, string[]>> = {
  CAMPAIGNS: ['RUNNING', 'PAUSED', 'PAUSED_BY_USER', 'PAUSED_BY_SYSTEM', 'ORG_PAYMENT_TYPE_CHANGED', 'TOTAL_BUDGET_EXHAUSTED', 'AD_GROUP_MISSING'],
  GROUPS: ['RUNNING', 'NOT_RUNNING'],
  KEYWORDS: ['ACTIVE', 'PAUSED'],
  NEGATIVE: ['ACTIVE', 'PAUSED'],
  SEARCHTERMS: ['ACTIVE', 'PAUSED'],
  ADS: ['ACTIVE', 'PAUSED'],
};

/**
 * The report catalog's metrics a filter offers, in the spec's order (the common metrics,
 * then the tap/view/total split), but for the totals of installs, downloads, redownloads and
 * CPA, which the builder has never offered (the server would filter on them too).
 */
const NOT_OFFERED = new Set(['totalInstalls', 'totalNewDownloads', 'totalRedownloads', 'totalAvgCPA']);
export const FILTER_METRICS: readonly string[] = METRIC_NAMES.filter((m) => !NOT_OFFERED.has(m));

/** Levels whose rows carry report tags. */
const TAGGED: Level[] = ['CAMPAIGNS', 'GROUPS', 'KEYWORDS', 'SEARCHTERMS'];

/** The filter types `level` offers, in the order the builder lists them. */
export function filterTypesOf(level: Level): FilterType[] {
  // Accounts and campaign groups have no statuses of docs/product.md#4-statuses-shown to filter by.
  const types: FilterType[] = level === 'ACCOUNTS' || level === 'ORGS' ? ['name'] : ['name', 'status'];
  if (level !== 'NEGATIVE') types.push('metrics');
  if (TAGGED.includes(level)) types.push('tag');
  if (level === 'CAMPAIGNS') types.push('country');
  return types;
}

/** Whether `type` is a list filter (no condition: rows having any of the values). */
export function isListType(type: FilterType): boolean {
  return type === 'status' || type === 'tag' || type === 'country';
}

export function isRange(condition: Condition | undefined): boolean {
  return condition === '><' || condition === '<>';
}

/** A new, empty filter of `type` (invalid until its value is given). */
export function emptyFilter(type: FilterType): Filter {
  if (isListType(type)) return { type, value: [] };
  if (type === 'metrics') return { type, metric: 'localSpend', condition: '>', value: '' };
  return { type, condition: 'contains', value: '' };
}

function filled(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  return typeof value === 'string' && value.trim() !== '';
}

function numeric(value: unknown): boolean {
  return filled(value) && Number.isFinite(Number(value));
}

/**
 * docs/product.md#5-filters: a filter is valid only if its value is non-empty (a list non-empty
 * with no empty entries) and its condition is set where the filter has one. A metric filter also
 * needs a metric and numbers, a range a minimum not above its maximum.
 */
export function isValidFilter(filter: Filter): boolean {
  const { type, condition, value } = filter;
  if (isListType(type)) return Array.isArray(value) && value.length > 0 && value.every(filled);
  if (condition === undefined) return false;
  if (type === 'name') return TEXT_CONDITIONS.includes(condition) && filled(value);
  if (type !== 'metrics' || !filter.metric || !METRIC_CONDITIONS.includes(condition)) return false;
  if (isRange(condition)) {
    return Array.isArray(value) && value.length === 2 && value.every(numeric) && Number(value[0]) <= Number(value[1]);
  }
  return !Array.isArray(value) && numeric(value);
}

/** Whether a metric is entered as a percentage. */
export function isPercentMetric(metric: string): boolean {
  return columnOf('KEYWORDS', metric).kind === 'percent';
}

function metricValue(metric: string, value: string | number): number {
  const n = Number(value);
  // Percent in, fraction out, without binary noise (5.23 / 100 = 0.052300000000000006).
  return isPercentMetric(metric) ? Number((n / 100).toPrecision(12)) : n;
}

/** The wire shape of a valid filter (docs/product.md#7-the-calls-it-makes). */
export function toWire(filter: Filter): WireFilter {
  if (isListType(filter.type)) {
    return { field: filter.type, operator: 'CONTAINS_ANY', values: (filter.value as string[]).map((v) => v.trim()) };
  }
  const operator = OPERATOR[filter.condition!];
  if (filter.type === 'metrics') {
    const metric = filter.metric!;
    const values = Array.isArray(filter.value) ? filter.value : [filter.value];
    return { field: metric, operator, values: values.map((v) => metricValue(metric, v)) };
  }
  return { field: filter.type, operator, values: [String(filter.value).trim()] };
}

/** The valid filters of a list, as sent. */
export function wireFilters(filters: Filter[]): WireFilter[] {
  return filters.filter(isValidFilter).map(toWire);
}

const TYPES: FilterType[] = ['name', 'status', 'metrics', 'tag', 'country'];
const CONDITIONS = Object.keys(OPERATOR) as Condition[];

/** A filter read back from untrusted JSON (the address, a saved preset), or null. */
export function parseFilter(input: unknown): Filter | null {
  if (typeof input !== 'object' || input === null) return null;
  const raw = input as Record<string, unknown>;
  const type = raw.type as FilterType;
  if (!TYPES.includes(type)) return null;
  const filter: Filter = { type, value: '' };
  if (raw.condition !== undefined) {
    if (!CONDITIONS.includes(raw.condition as Condition)) return null;
    filter.condition = raw.condition as Condition;
  }
  if (raw.metric !== undefined) {
    if (typeof raw.metric !== 'string' || !FILTER_METRICS.includes(raw.metric)) return null;
    filter.metric = raw.metric;
  }
  const value = raw.value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number')) filter.value = value as string[] | number[];
  else if (typeof value === 'string' || typeof value === 'number') filter.value = value;
  else return null;
  return isValidFilter(filter) ? filter : null;
}

/** At most this many filters at once. */
export const MAX_FILTERS = 20;

/** The filters of the address's `filters` parameter (JSON); unreadable ones are dropped. */
export function readFilters(text: string | null): Filter[] {
  if (!text) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed)) return [];
    return parsed
      .slice(0, MAX_FILTERS)
      .map(parseFilter)
      .filter((f): f is Filter => f !== null);
  } catch {
    return [];
  }
}

/** The `filters` parameter of valid filters, or null when there are none. */
export function writeFilters(filters: Filter[]): string | null {
  const valid = filters.filter(isValidFilter);
  return valid.length ? JSON.stringify(valid) : null;
}
