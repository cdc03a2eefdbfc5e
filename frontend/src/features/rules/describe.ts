/**
 * A rule and its runs in words: the frequency ("Daily at 06:00"), the window, the conditions
 * ("ROAS < 80 % and Revenue D7 < $2.00"), the labels of levels, metrics (Apple Ads', and the
 * Conversions and Cohort columns' of the report catalog: "Cost per trial", "ROAS D7"),
 * operators and results, and how a metric value of a run item reads (money in the campaign
 * group's currency, ratios as percentages, counts with thousands).
 */
import { t } from '@/i18n';
import { EMPTY, formatMoney, formatNumber, formatPercent } from '@/lib/format';
import { isMoneyMetric, isRatio, OPERATOR_SYMBOL, type Operator } from './schema';
import { metricLabel } from './labels';
import { messageOr } from './messages';

export { metricLabel };

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


/** A condition as a stored rule or a body holds it. */
export type ConditionLike = { type: string; [field: string]: unknown };

/** The parts of a rule its conditions' sentence reads (a stored rule or a body). */
export interface ConditionsLike {
  operator: string;
  groups: { operator: string; conditions: readonly ConditionLike[] }[];
}

const str = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');
const strs = (value: unknown) => (Array.isArray(value) ? value.map(str) : []);
const symbol = (op: unknown) => OPERATOR_SYMBOL[str(op) as Operator] ?? str(op);

/** One condition in words: "ROAS < 80 %", "Cost per trial > 2 × CPA goal", "Status Active". */
export function conditionText(condition: ConditionLike, currency: string | null): string {
  switch (condition.type) {
    case 'metric': {
      const metric = str(condition.metric);
      return `${metricLabel(metric)} ${symbol(condition.operator)} ${metricValueText(metric, str(condition.value), currency)}`;
    }
    case 'compare': {
      const coefficient = str(condition.coefficient);
      const times = coefficient === '1' ? '' : `${formatNumber(coefficient)} × `;
      return `${metricLabel(str(condition.metric))} ${symbol(condition.operator)} ${times}${metricLabel(str(condition.other))}`;
    }
    case 'status':
      return `${t('rules.cond.status')} ${strs(condition.values).map((v) => messageOr(`status.${v}`, v)).join(', ')}`;
    case 'matchType':
      return `${t('rules.cond.matchType')} ${strs(condition.values).map((v) => messageOr(`rules.match.${v}`, v)).join(', ')}`;
    case 'tag':
      return `${t('rules.cond.tag')} ${strs(condition.values).join(', ')}`;
    case 'name':
      return `${t('rules.cond.name')} ${messageOr(`rules.nameOp.${str(condition.operator)}`, str(condition.operator))} “${str(condition.value)}”`;
    default:
      return condition.type;
  }
}

/** A rule's conditions in one sentence: each group's joined by its and/or, groups in brackets when there are several. */
export function conditionsText(conditions: ConditionsLike, currency: string | null): string {
  const word = (op: string) => ` ${t(op === 'OR' ? 'rules.text.or' : 'rules.text.and')} `;
  const groups = conditions.groups.filter((g) => g.conditions.length > 0);
  const parts = groups.map((g) => {
    const text = g.conditions.map((c) => conditionText(c, currency)).join(word(g.operator));
    return groups.length > 1 && g.conditions.length > 1 ? `(${text})` : text;
  });
  return parts.join(word(conditions.operator));
}
