/**
 * The columns of each level (docs/product.md#2-tables): the name (the first, sticky column), the
 * status, the level's own columns and the common metrics, each with how its value shows
 * (docs/product.md#5-money: money in the org's currency, ratios as percentages, counts with space
 * thousands).
 */
import type { MessageKey } from '@/i18n';
import { METRICS as CATALOG_METRICS, CONVERSION_METRICS } from '@/lib/report-catalog';
import type { Level } from './paths';

export type ColumnKind = 'name' | 'status' | 'money' | 'percent' | 'count' | 'decimal' | 'id' | 'tags' | 'list' | 'bool' | 'time' | 'text' | 'rules' | 'optimization' | 'code';

export interface ColumnDef {
  field: string;
  kind: ColumnKind;
}

/** The common metrics, in the spec's order, each shown as the report catalog says. */
const METRICS: ColumnDef[] = CATALOG_METRICS.filter((m) => m.common).map((m) => ({ field: m.name, kind: m.display }));

const c = (field: string, kind: ColumnKind): ColumnDef => ({ field, kind });

const LEVEL_COLUMNS: Partial<Record<Level, ColumnDef[]>> = {
  ACCOUNTS: [c('accountName', 'name'), c('status', 'status'), c('accountId', 'id')],
  ORGS: [c('orgName', 'name'), c('status', 'status'), c('orgId', 'id'), c('currency', 'text'), c('timeZone', 'text')],
  CAMPAIGNS: [
    c('campaignName', 'name'),
    c('servingStatus', 'status'),
    c('tag', 'tags'),
    c('campaignId', 'id'),
    c('countriesOrRegions', 'list'),
    // The goal optimisation's type and target (docs/api/rules.md; Growth-locked: null then).
    c('optimizationTypes', 'optimization'),
    c('dailyBudget', 'money'),
    c('orgId', 'id'),
    // The rules attached: `[{id, name, enabled}]`, or null.
    c('rules', 'rules'),
    c('totalRevenue', 'money'),
    c('trackedInstalls', 'count'),
  ],
  GROUPS: [
    c('adGroupName', 'name'),
    c('adGroupServingStatus', 'status'),
    c('tag', 'tags'),
    c('adGroupId', 'id'),
    c('totalRevenue', 'money'),
    c('defaultBidAmount', 'money'),
    c('cpaGoal', 'money'),
    c('automatedKeywordsOptIn', 'bool'),
  ],
  KEYWORDS: [
    c('keyword', 'name'),
    c('keywordStatus', 'status'),
    c('tag', 'tags'),
    c('keywordId', 'id'),
    c('organicSearch', 'count'),
    c('qsStatus', 'text'),
    c('auctionInsights', 'text'),
    c('totalRevenue', 'money'),
    c('popularity', 'count'),
    c('cptBid', 'money'),
    c('currentAppPosition', 'count'),
  ],
  NEGATIVE: [
    c('text', 'name'),
    c('status', 'status'),
    c('adGroupId', 'id'),
    c('campaignId', 'id'),
    c('level', 'code'),
    c('id', 'id'),
    c('matchType', 'code'),
    c('modificationTime', 'time'),
  ],
  SEARCHTERMS: [
    c('searchTermText', 'name'),
    c('searchTermStatus', 'status'),
    c('tag', 'tags'),
    c('searchTermTextTranslate', 'text'),
    c('keywordDisplayStatus', 'status'),
    c('popularity', 'count'),
    c('organicSearch', 'count'),
    c('auctionInsights', 'text'),
    c('searchTermSource', 'code'),
    c('impressionShare', 'text'),
    c('keyword', 'text'),
  ],
  ADS: [c('creativeSetName', 'name'), c('adDisplayStatus', 'status'), c('adStatus', 'status'), c('adGroupName', 'text')],
};

/** The columns of `level`, in the order they show (negative keywords have no metrics). */
export function columnsOf(level: Level): ColumnDef[] {
  const own = LEVEL_COLUMNS[level] ?? [];
  return level === 'NEGATIVE' ? own : [...own, ...METRICS];
}

/**
 * How the report's other columns show: those a column preset may add beyond the spec's
 * table columns (the tap/view/total split of installs, downloads, CPA and CR, from the
 * report catalog, and the entities' own ids and statuses). See the report catalog
 * (`/api/setFields/fields/{type}`).
 */
const EXTRA_KINDS: Record<string, ColumnKind> = {
  // The split metrics, as the report catalog shows them.
  ...Object.fromEntries(CATALOG_METRICS.filter((m) => !m.common).map((m) => [m.name, m.display])),
  // The Conversions and Cohort columns (docs/api/attribution.md): money in the report's
  // currency, ratios as percentages, counts as integers, as the report catalog says.
  ...Object.fromEntries(CONVERSION_METRICS.map((m) => [m.name, m.display])),
  adamId: 'id',
  adId: 'id',
  searchTermId: 'id',
  creativeId: 'id',
  campaignId: 'id',
  adGroupId: 'id',
  keywordId: 'id',
  campaignStatus: 'status',
  adGroupStatus: 'status',
  keywordDisplayStatus: 'status',
  matchType: 'code',
  adName: 'text',
  adGroupName: 'text',
  keyword: 'text',
};

/**
 * The column `field` of `level`: the level's own definition, else the common kind of that
 * field, else plain text.
 */
export function columnOf(level: Level, field: string): ColumnDef {
  return columnsOf(level).find((c) => c.field === field) ?? { field, kind: EXTRA_KINDS[field] ?? 'text' };
}

/**
 * Whether the totals of an answer add up money of several currencies: on ACCOUNTS and ORGS
 * the rows keep their own currencies, and an answer without one currency has no money
 * total (its sums would mix dollars and yen).
 */
export function mixesCurrencies(level: Level, currency: string | null): boolean {
  return (level === 'ACCOUNTS' || level === 'ORGS') && currency === null;
}

/** The name column of `level` (the first, sticky column, always shown). */
export function nameColumn(level: Level): string | null {
  return LEVEL_COLUMNS[level]?.[0]?.field ?? null;
}

/**
 * The id field of a level's rows (docs/product.md#3-identifier-and-name-fields-per-level).
 */
export const ID_FIELD: Partial<Record<Level, string>> = {
  ACCOUNTS: 'accountId',
  ORGS: 'orgId',
  CAMPAIGNS: 'campaignId',
  GROUPS: 'adGroupId',
  KEYWORDS: 'keywordId',
  NEGATIVE: 'id',
  SEARCHTERMS: 'searchTermId',
  ADS: 'adId',
};

export function columnLabel(field: string): string {
  return `col.${field}`;
}

export function labelKey(field: string): MessageKey {
  return columnLabel(field) as MessageKey;
}

/** Campaign statuses the spec marks as errors (docs/product.md#4-statuses-shown). */
const ERROR_STATUSES = new Set(['ORG_PAYMENT_TYPE_CHANGED', 'TOTAL_BUDGET_EXHAUSTED', 'AD_GROUP_MISSING']);

export type StatusTone = 'running' | 'paused' | 'error' | 'neutral';

/**
 * How a status shows (docs/product.md#4-statuses-shown): its label's key and tone. NOT_RUNNING
 * shows as Paused, an ad's ACTIVE as Enabled, the campaign error statuses in red.
 */
export function statusView(level: Level, field: string, value: string): { key: string; tone: StatusTone } {
  if (ERROR_STATUSES.has(value)) return { key: `status.${value}`, tone: 'error' };
  if (level === 'ADS' && field === 'adDisplayStatus' && value === 'ACTIVE') return { key: 'status.ENABLED', tone: 'running' };
  if (value === 'RUNNING' || value === 'ACTIVE' || value === 'ENABLED') return { key: `status.${value}`, tone: 'running' };
  if (value === 'NOT_RUNNING' || value.startsWith('PAUSED')) return { key: `status.${value}`, tone: 'paused' };
  return { key: `status.${value}`, tone: 'neutral' };
}
