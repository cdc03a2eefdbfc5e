/**
 * When a rule runs and over which days (docs/api/rules.md "Window", "Frequency"): the
 * form's shapes, the body's, and their checks (`window.days`, `frequency.hour`).
 */
import { z } from 'zod';
import { t } from '@/i18n';
import { type Checker, typed } from './numbers';
import { MAX_DAYS, WEEKDAYS } from './vocabulary';

export const windowFormSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('last'), days: typed, excludeToday: z.boolean() }),
  z.object({ type: z.literal('between'), fromDaysAgo: typed, toDaysAgo: typed }),
]);
export type WindowForm = z.input<typeof windowFormSchema>;

export const frequencyFormSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hourly') }),
  z.object({ type: z.literal('daily'), hour: z.number() }),
  z.object({ type: z.literal('weekly'), weekday: z.enum(WEEKDAYS), hour: z.number() }),
]);
export type FrequencyForm = z.input<typeof frequencyFormSchema>;

export type WindowBody = { type: 'last'; days: number; excludeToday: boolean } | { type: 'between'; fromDaysAgo: number; toDaysAgo: number };
export type FrequencyBody = { type: 'hourly' } | { type: 'daily'; hour: number } | { type: 'weekly'; weekday: (typeof WEEKDAYS)[number]; hour: number };

export function checkWindow(check: Checker, window: WindowForm): WindowBody | null {
  if (window.type === 'last') {
    const days = check.integer(['window', 'days'], window.days, 1, MAX_DAYS);
    return days === null ? null : { type: 'last', days, excludeToday: window.excludeToday };
  }
  const from = check.integer(['window', 'fromDaysAgo'], window.fromDaysAgo, 1, MAX_DAYS);
  const to = check.integer(['window', 'toDaysAgo'], window.toDaysAgo, 1, MAX_DAYS);
  if (from === null || to === null) return null;
  if (to > from) return check.fail(['window', 'toDaysAgo'], t('rules.error.windowOrder'));
  return { type: 'between', fromDaysAgo: from, toDaysAgo: to };
}

/**
 * How many days ago a window's first day is (today is 0): `last` N days starts N days ago
 * without today, N − 1 with it; `between` F and T days ago starts F days ago.
 */
export function windowStartDaysAgo(window: WindowBody): number {
  if (window.type === 'between') return window.fromDaysAgo;
  return window.excludeToday ? window.days : window.days - 1;
}

export function checkFrequency(check: Checker, frequency: FrequencyForm): FrequencyBody | null {
  if (frequency.type === 'hourly') return { type: 'hourly' };
  const hour = check.integer(['frequency', 'hour'], frequency.hour, 0, 23);
  if (hour === null) return null;
  return frequency.type === 'daily' ? { type: 'daily', hour } : { type: 'weekly', weekday: frequency.weekday, hour };
}
