/**
 * The browser's days (docs/product.md#2-activity-log): notifications grouped under Today,
 * Yesterday, Last 30 days and Older by the day they fall on at the browser's offset from UTC (the
 * same `GMT` the list is asked with, so the groups and the server's date range agree), and the
 * default date range, the last 30 days (docs/product.md#9-tables-and-notifications: history 30
 * days) ending today.
 */
import type { Notification } from './api/notifications';

/** The history window in days (docs/product.md#9-tables-and-notifications), today included. */
export const HISTORY_DAYS = 30;

export const DAY_GROUPS = ['today', 'yesterday', 'last30', 'older'] as const;
export type DayGroup = (typeof DAY_GROUPS)[number];

const MS_PER_DAY = 86_400_000;
const MS_PER_MINUTE = 60_000;

/** The number of the day `at` falls on, `gmt` minutes east of UTC. */
export function dayNumber(at: Date | number | string, gmt: number): number {
  const time = at instanceof Date ? at.getTime() : typeof at === 'number' ? at : Date.parse(at);
  return Math.floor((time + gmt * MS_PER_MINUTE) / MS_PER_DAY);
}

/** `YYYY-MM-DD` of the day `at` falls on, `gmt` minutes east of UTC. */
export function dayOf(at: Date | number | string, gmt: number): string {
  return new Date(dayNumber(at, gmt) * MS_PER_DAY).toISOString().slice(0, 10);
}

/** Which group a notification made at `created` goes under when it is `now`. */
export function dayGroupOf(created: string, now: Date, gmt: number): DayGroup {
  const age = dayNumber(now, gmt) - dayNumber(created, gmt);
  if (age <= 0) return 'today';
  if (age === 1) return 'yesterday';
  if (age < HISTORY_DAYS) return 'last30';
  return 'older';
}

export interface DaySection {
  group: DayGroup;
  items: Notification[];
}

/** The notifications under their day groups, in the groups' order, empty groups left out. */
export function groupByDay(items: readonly Notification[], now: Date, gmt: number): DaySection[] {
  const sections = new Map<DayGroup, Notification[]>(DAY_GROUPS.map((g) => [g, []]));
  for (const item of items) sections.get(dayGroupOf(item.dateCreated, now, gmt))!.push(item);
  return DAY_GROUPS.map((group) => ({ group, items: sections.get(group)! })).filter((s) => s.items.length > 0);
}

/** The default date range: the last 30 days, today included, in the browser's days. */
export function defaultRange(now: Date, gmt: number): { start: string; end: string } {
  const end = dayOf(now, gmt);
  const start = dayOf(now.getTime() - (HISTORY_DAYS - 1) * MS_PER_DAY, gmt);
  return { start, end };
}
