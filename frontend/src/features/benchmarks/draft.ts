/**
 * The editable tables' state: a draft value per cell (country, or country and cohort window),
 * compared with what is stored to make the PATCH items — changed cells set, emptied cells
 * cleared (null), untouched cells not sent — and checked before sending.
 */
import { currencyDigits } from '@/lib/format';

/** The "all countries" row's key. */
export const ALL = '';

/** The cohort windows of the revenues table, as the report's Cohort columns name them. */
export const COHORTS = ['roasD0', 'roasD1', 'roasD3', 'roasD7', 'roasD14', 'roasD30'] as const;
export type Cohort = (typeof COHORTS)[number];

/** A cell's key: its country (`''`: all countries), and its cohort in the revenues table. */
export const cellKey = (country: string | null | undefined, cohort?: string): string => (cohort ? `${country ?? ALL}|${cohort}` : (country ?? ALL));

/** The table's rows: all countries first, then every country with a stored or added cell, sorted. */
export function rowsOf(stored: readonly string[], added: readonly string[]): string[] {
  const countries = new Set([...stored, ...added].filter((c) => c !== ALL));
  return [ALL, ...[...countries].sort()];
}

/** A cell changed from `stored` to `draft`: the value to send (null clears), or undefined when unchanged. */
export function change(stored: string | undefined, draft: string | undefined): string | null | undefined {
  const next = (draft ?? stored ?? '').trim();
  if (next === (stored ?? '')) return undefined;
  return next === '' ? (stored === undefined ? undefined : null) : next;
}

/** Why `text` is not an amount of `currency` (at least 0, at most its decimals), or null. */
export function moneyProblem(text: string, currency: string): string | null {
  const digits = currencyDigits(currency);
  const shape = digits === 0 ? /^\d+$/ : new RegExp(`^\\d+(\\.\\d{1,${digits}})?$`);
  return text === '' || shape.test(text) ? null : String(digits);
}

/** Whether `text` is not a ROAS in percent (0 to 100 000 %, at most 2 decimals: the API's fraction to 4). */
export function roasProblem(text: string): boolean {
  return text !== '' && (!/^\d+(\.\d{1,2})?$/.test(text) || Number(text) > 100_000);
}
