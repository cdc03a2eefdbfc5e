/**
 * The table's state in the address (docs/product.md#2-tables: date range, sort, page and level tab
 * live in the URL and survive reload and back/forward). The tab is the path's last segment (see
 * paths.ts); the query carries the rest, defaults left out:
 * - `range=<preset>` for a named range (recomputed each day), or `start` and `end` days;
 * - `sort=<field>` and `order=asc|desc` (desc when absent);
 * - `page` (1-based, 1 when absent) and `size`, the rows per page (50 when absent; one of
 *   PAGE_SIZES);
 * - `filters`: the valid filters as JSON (filters.ts), absent when none;
 * - `chart`: the chart's two metrics, comma-separated, absent for the default pair.
 */
import { DEFAULT_CHART_METRICS, readChartMetrics, type ChartMetrics } from './chart-metrics';
import { customRange, DEFAULT_PRESET, isDay, isPreset, presetRange, type DayRange } from './date-range';
import { readFilters, writeFilters, type Filter } from './filters';

export type SortOrder = 'asc' | 'desc';

/** The page sizes offered: the spec's 50 (the default) up to the report's largest page. */
export const PAGE_SIZES = [50, 100, 250, 500, 1000] as const;
export const DEFAULT_PAGE_SIZE = 50;

export interface TableState {
  range: DayRange;
  sort: { field: string; order: SortOrder } | null;
  page: number;
  /** Rows per page, one of PAGE_SIZES. */
  size: number;
  filters: Filter[];
  chart: ChartMetrics;
}

const FIELD = /^[A-Za-z][A-Za-z0-9]{0,63}$/;

/** The state the address describes, as of `today`; anything unreadable falls back to the default. */
export function readTableState(search: URLSearchParams, today: string): TableState {
  const preset = search.get('range');
  const start = search.get('start');
  const end = search.get('end');
  let range: DayRange;
  if (isPreset(preset)) range = presetRange(preset, today);
  else if (start !== null && end !== null && isDay(start) && isDay(end)) range = customRange(start, end);
  else range = presetRange(DEFAULT_PRESET, today);
  const field = search.get('sort');
  const sort = field !== null && FIELD.test(field) ? { field, order: search.get('order') === 'asc' ? ('asc' as const) : ('desc' as const) } : null;
  const pageText = search.get('page');
  const page = pageText !== null && /^\d{1,6}$/.test(pageText) && Number(pageText) >= 1 ? Number(pageText) : 1;
  const sizeText = search.get('size');
  const size = PAGE_SIZES.find((n) => String(n) === sizeText) ?? DEFAULT_PAGE_SIZE;
  return { range, sort, page, size, filters: readFilters(search.get('filters')), chart: readChartMetrics(search.get('chart')) };
}

/** The query of `state`, keeping unrelated parameters of `base`. */
export function writeTableState(state: TableState, base: URLSearchParams = new URLSearchParams()): URLSearchParams {
  const search = new URLSearchParams(base);
  for (const key of ['range', 'start', 'end', 'sort', 'order', 'page', 'size', 'filters', 'chart']) search.delete(key);
  if (state.range.preset !== null) {
    if (state.range.preset !== DEFAULT_PRESET) search.set('range', state.range.preset);
  } else {
    search.set('start', state.range.start);
    search.set('end', state.range.end);
  }
  if (state.sort) {
    search.set('sort', state.sort.field);
    if (state.sort.order === 'asc') search.set('order', 'asc');
  }
  if (state.page > 1) search.set('page', String(state.page));
  if (state.size !== DEFAULT_PAGE_SIZE) search.set('size', String(state.size));
  const filters = writeFilters(state.filters);
  if (filters !== null) search.set('filters', filters);
  if (state.chart.join(',') !== DEFAULT_CHART_METRICS.join(',')) search.set('chart', state.chart.join(','));
  return search;
}

/**
 * The query to carry when drilling to another level: the date range and the chart's metrics
 * stay, sort, page and filters (which belong to the level's columns) are dropped.
 */
export function drillSearch(search: URLSearchParams): string {
  const kept = new URLSearchParams();
  for (const key of ['range', 'start', 'end', 'chart']) {
    const value = search.get(key);
    if (value !== null) kept.set(key, value);
  }
  const text = kept.toString();
  return text ? `?${text}` : '';
}
