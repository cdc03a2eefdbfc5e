/**
 * The report date range (docs/product.md#2-other-ui): the named ranges Today … Year to Date
 * (default Last 7 days), weeks starting on Monday, a custom range whose start and end are swapped
 * when the end comes first. Days are `YYYY-MM-DD` strings, as the report API takes them; "today"
 * is the campaign group's day (reports are in its time zone).
 */

export const RANGE_PRESETS = [
  'today',
  'yesterday',
  'last7',
  'thisWeek',
  'lastWeek',
  'thisMonth',
  'lastMonth',
  'last30',
  'last4Weeks',
  'last12Weeks',
  'yearToDate',
] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

export const DEFAULT_PRESET: RangePreset = 'last7';

/** A range of days, inclusive; `preset` when it is one of the named ranges. */
export interface DayRange {
  start: string;
  end: string;
  preset: RangePreset | null;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const MS_PER_DAY = 86_400_000;

/** The UTC midnight of a `YYYY-MM-DD` day, or null when it is not a real day. */
function toTime(day: string): number | null {
  const m = DAY.exec(day);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const time = Date.UTC(y, mo - 1, d);
  const back = new Date(time);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return time;
}

function fromTime(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

export function isDay(value: string): boolean {
  return toTime(value) !== null;
}

export function addDays(day: string, n: number): string {
  const time = toTime(day);
  if (time === null) throw new Error(`not a day: ${day}`);
  return fromTime(time + n * MS_PER_DAY);
}

/** The Monday of `day`'s week (weeks start on Monday). */
export function mondayOf(day: string): string {
  const time = toTime(day);
  if (time === null) throw new Error(`not a day: ${day}`);
  const weekday = (new Date(time).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  return addDays(day, -weekday);
}

/** Today in `timeZone` (the browser's zone when absent or unknown). */
export function todayIn(timeZone: string | null | undefined, now: Date = new Date()): string {
  const format = (zone?: string) =>
    new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', ...(zone ? { timeZone: zone } : {}) }).format(now);
  try {
    return format(timeZone ?? undefined);
  } catch {
    return format();
  }
}

/** The days of a named range as of `today`. */
export function presetRange(preset: RangePreset, today: string): DayRange {
  const [y, m] = today.split('-');
  const monday = mondayOf(today);
  const firstOfMonth = `${y}-${m}-01`;
  const span = (start: string, end: string): DayRange => ({ start, end, preset });
  switch (preset) {
    case 'today':
      return span(today, today);
    case 'yesterday':
      return span(addDays(today, -1), addDays(today, -1));
    case 'last7':
      return span(addDays(today, -6), today);
    case 'thisWeek':
      return span(monday, today);
    case 'lastWeek':
      return span(addDays(monday, -7), addDays(monday, -1));
    case 'thisMonth':
      return span(firstOfMonth, today);
    case 'lastMonth': {
      const lastOfPrevious = addDays(firstOfMonth, -1);
      return span(`${lastOfPrevious.slice(0, 7)}-01`, lastOfPrevious);
    }
    case 'last30':
      return span(addDays(today, -29), today);
    // The last whole weeks, Monday to Sunday, before the current one.
    case 'last4Weeks':
      return span(addDays(monday, -28), addDays(monday, -1));
    case 'last12Weeks':
      return span(addDays(monday, -84), addDays(monday, -1));
    case 'yearToDate':
      return span(`${y}-01-01`, today);
  }
}

/** A custom range; start and end are swapped when the end is before the start. */
export function customRange(start: string, end: string): DayRange {
  return start <= end ? { start, end, preset: null } : { start: end, end: start, preset: null };
}

export function isPreset(value: string | null): value is RangePreset {
  return value !== null && (RANGE_PRESETS as readonly string[]).includes(value);
}

/** `DD/MM/YYYY` as typed in the picker to `YYYY-MM-DD`, or null when it is not a real day. */
export function parseDisplayDay(text: string): string | null {
  const m = /^\s*(\d{1,2})\/(\d{1,2})\/(\d{4})\s*$/.exec(text);
  if (!m) return null;
  const day = `${m[3]}-${m[2]!.padStart(2, '0')}-${m[1]!.padStart(2, '0')}`;
  return isDay(day) ? day : null;
}

/** `YYYY-MM-DD` to `DD/MM/YYYY` (docs/product.md#2-other-ui). */
export function displayDay(day: string): string {
  const [y, m, d] = day.split('-');
  return `${d}/${m}/${y}`;
}
