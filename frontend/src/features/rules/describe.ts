/**
 * A rule and its runs in words: the frequency ("Daily at 06:00"), the window, the labels of
 * levels, metrics, operators and results, and how a metric value of a run item reads
 * (money in the campaign group's currency, ratios as percentages, counts with thousands).
 */
import { t } from '@/i18n';
import { EMPTY, formatMoney, formatNumber, formatPercent } from '@/lib/format';
import { isMoneyMetric, isRatio } from './schema';
import { messageOr } from './messages';

const hourText = (hour: number | undefined) => `${String(hour ?? 0).padStart(2, '0')}:00`;

export function frequencyText(frequency: { type: string; hour?: number | undefined; weekday?: string | undefined }): string {
  if (frequency.type === 'hourly') return t('rules.freq.hourlyText');
  if (frequency.type === 'weekly') return t('rules.freq.weeklyText').replace('{day}', weekdayLabel(frequency.weekday ?? 'MONDAY')).replace('{hour}', hourText(frequency.hour));
  return t('rules.freq.dailyText').replace('{hour}', hourText(frequency.hour));
}

export function windowText(window: { type: string; days?: number | undefined; excludeToday?: boolean | undefined; fromDaysAgo?: number | undefined; toDaysAgo?: number | undefined }): string {
  if (window.type === 'between') return t('rules.window.betweenText').replace('{from}', String(window.fromDaysAgo ?? '')).replace('{to}', String(window.toDaysAgo ?? ''));
  const text = t('rules.window.lastText').replace('{days}', String(window.days ?? ''));
  return window.excludeToday === false ? `${text} ${t('rules.window.withToday')}` : text;
}

export const weekdayLabel = (day: string) => messageOr(`rules.weekday.${day}`, day);
export const levelLabel = (level: string) => messageOr(`rules.level.${level}`, level);
export const metricLabel = (metric: string) => messageOr(`col.${metric}`, messageOr(`rules.other.${metric}`, metric));
export const actionLabel = (type: string) => messageOr(`rules.action.${type}`, type);
export const resultLabel = (result: string) => messageOr(`rules.result.${result}`, result);
export const statusLabel = (status: string) => messageOr(`rules.status.${status}`, status);
export const triggerLabel = (trigger: string) => messageOr(`rules.trigger.${trigger}`, trigger);
export const conditionTypeLabel = (type: string) => messageOr(`rules.cond.${type}`, type);

/** The colour of a run's or an item's outcome badge. */
export function outcomeColor(status: string): string {
  if (status === 'DONE' || status === 'APPLIED') return 'green';
  if (status === 'FAILED' || status === 'REFUSED') return 'red';
  if (status === 'SKIPPED' || status === 'UNDONE') return 'gray';
  return 'blue';
}

/** A metric value of a run (ratios come as fractions). */
export function metricValueText(metric: string, value: string | null | undefined, currency: string | null): string {
  if (value === null || value === undefined || value === '') return EMPTY;
  if (isRatio(metric)) return formatPercent(value);
  if (isMoneyMetric(metric)) return formatMoney(value, currency);
  return formatNumber(value);
}

/** An old or new value of a run item: money for bids and budgets, else the word. */
export function changeValueText(field: string | null | undefined, value: string | null | undefined, currency: string | null): string {
  if (value === null || value === undefined || value === '') return EMPTY;
  if (field && /bid|budget|amount/i.test(field) && !Number.isNaN(Number(value))) return formatMoney(value, currency);
  return messageOr(`status.${value}`, value);
}

