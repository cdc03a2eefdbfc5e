/**
 * Dates as the app shows them (docs/product.md#2-other-ui): DD/MM/YYYY, and DD/MM/YYYY HH:mm with a
 * time. A date without a time (`2026-11-22`, as reports send days) is that calendar day wherever
 * the browser is; instants (timestamps, ISO strings with a time) show in the local zone.
 */
import { EMPTY } from './number';

export type DateInput = Date | string | number | null | undefined;

const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;

interface Instant {
  date: Date;
  /** Set for calendar days, which are read in UTC so no zone moves them. */
  timeZone?: 'UTC';
}

function toInstant(input: DateInput): Instant | null {
  if (input === null || input === undefined || input === '') return null;
  const dayOnly = typeof input === 'string' && DAY_ONLY.test(input);
  const date = input instanceof Date ? input : new Date(input);
  if (Number.isNaN(date.getTime())) return null;
  return dayOnly ? { date, timeZone: 'UTC' } : { date };
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function parts(instant: Instant, withTime: boolean): Record<string, string> {
  const key = `${instant.timeZone ?? 'local'}:${withTime}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      ...(withTime ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } : {}),
      ...(instant.timeZone ? { timeZone: instant.timeZone } : {}),
    });
    formatters.set(key, format);
  }
  return Object.fromEntries(format.formatToParts(instant.date).map((p) => [p.type, p.value]));
}

/** `22/11/2026`; empty or unreadable input shows a dash. */
export function formatDate(input: DateInput): string {
  const instant = toInstant(input);
  if (!instant) return EMPTY;
  const { day, month, year } = parts(instant, false);
  return `${day}/${month}/${year}`;
}

/** `22/11/2026 20:05` in the local zone; empty or unreadable input shows a dash. */
export function formatDateTime(input: DateInput): string {
  const instant = toInstant(input);
  if (!instant) return EMPTY;
  const { day, month, year, hour, minute } = parts(instant, true);
  return `${day}/${month}/${year} ${hour}:${minute}`;
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

const relativeFormatters = new Map<string, Intl.RelativeTimeFormat>();

/**
 * How long ago `input` was, in the largest whole unit: `now` under 10 s, `5 minutes ago`,
 * `yesterday`, `3 days ago`; empty or unreadable input shows a dash.
 */
export function formatTimeAgo(input: DateInput, now: number = Date.now(), locale = 'en'): string {
  const instant = toInstant(input);
  if (!instant) return EMPTY;
  let format = relativeFormatters.get(locale);
  if (!format) {
    format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
    relativeFormatters.set(locale, format);
  }
  const seconds = Math.round((instant.date.getTime() - now) / 1000);
  if (Math.abs(seconds) < 10) return format.format(0, 'second');
  const [unit, size] = UNITS.find(([, s]) => Math.abs(seconds) >= s) ?? ['second', 1];
  return format.format(Math.trunc(seconds / size), unit);
}
