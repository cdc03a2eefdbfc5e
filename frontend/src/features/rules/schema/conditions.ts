/**
 * A rule's conditions (docs/api/rules.md "Conditions"): the types each level takes, the
 * form's shapes as a zod discriminated union on `type`, the body's, and the check that
 * turns one into the other (`conditions.groups.1.conditions.0.value`).
 */
import { z } from 'zod';
import { t } from '@/i18n';
import { currencyDigits } from '@/lib/format';
import { cohortDays, isConversionCount, isMoneyMetric, isRatio, metricsAt, othersAt } from './metrics';
import { metricLabel } from '../labels';
import { type Checker, fill, percentToFraction, typed, type Path } from './numbers';
import { windowStartDaysAgo, type WindowBody } from './schedule';
import { LOGIC, MATCH_TYPES, NAME_OPERATORS, OPERATORS, type Operator, type RuleLevel } from './vocabulary';

export const CONDITION_TYPES = ['metric', 'compare', 'status', 'name', 'tag', 'matchType'] as const;
export type ConditionType = (typeof CONDITION_TYPES)[number];

/** The statuses a `status` condition takes at each level (none at search terms). */
export const STATUSES: Record<RuleLevel, readonly string[]> = {
  CAMPAIGNS: ['ENABLED', 'PAUSED'],
  ADGROUPS: ['ENABLED', 'PAUSED'],
  KEYWORDS: ['ACTIVE', 'PAUSED'],
  SEARCHTERMS: [],
};

export function conditionTypesAt(level: RuleLevel): ConditionType[] {
  return CONDITION_TYPES.filter((type) => {
    if (type === 'status') return level !== 'SEARCHTERMS';
    if (type === 'matchType') return level === 'KEYWORDS' || level === 'SEARCHTERMS';
    return true;
  });
}

const operator = z.enum(OPERATORS);

const metricCondition = z.object({ type: z.literal('metric'), metric: z.string(), operator, value: typed });
const compareCondition = z.object({ type: z.literal('compare'), metric: z.string(), operator, other: z.string(), coefficient: typed });
const statusCondition = z.object({ type: z.literal('status'), values: z.array(z.string()) });
const nameCondition = z.object({ type: z.literal('name'), operator: z.enum(NAME_OPERATORS), value: z.string() });
const tagCondition = z.object({ type: z.literal('tag'), values: z.array(z.string()) });
const matchTypeCondition = z.object({ type: z.literal('matchType'), values: z.array(z.string()) });

export const conditionFormSchema = z.discriminatedUnion('type', [metricCondition, compareCondition, statusCondition, nameCondition, tagCondition, matchTypeCondition]);
export type ConditionForm = z.input<typeof conditionFormSchema>;

export const groupFormSchema = z.object({ operator: z.enum(LOGIC), conditions: z.array(conditionFormSchema) });
export type GroupForm = z.input<typeof groupFormSchema>;

export type ConditionBody =
  | { type: 'metric'; metric: string; operator: Operator; value: string }
  | { type: 'compare'; metric: string; operator: Operator; other: string; coefficient: string }
  | { type: 'status' | 'tag' | 'matchType'; values: string[] }
  | { type: 'name'; operator: (typeof NAME_OPERATORS)[number]; value: string };

export function checkCondition(check: Checker, condition: ConditionForm, level: RuleLevel, currency: string | null, path: Path): ConditionBody | null {
  if (!conditionTypesAt(level).includes(condition.type)) {
    check.issue([...path, 'type'], t('rules.error.conditionLevel'));
    return null;
  }
  const metrics = metricsAt(level);
  switch (condition.type) {
    case 'metric': {
      if (!metrics.includes(condition.metric)) check.issue([...path, 'metric'], t('rules.error.metric'));
      const value = check.decimal([...path, 'value'], condition.value, { min: 0, integer: isConversionCount(condition.metric) });
      if (value === null) return null;
      if (isMoneyMetric(condition.metric)) {
        const digits = currencyDigits(currency);
        if ((value.split('.')[1] ?? '').replace(/0+$/, '').length > digits) {
          check.issue([...path, 'value'], fill(digits === 0 ? t('money.whole') : t('money.decimals'), { label: t('rules.value'), digits, currency: currency ?? '' }));
          return null;
        }
      }
      return { type: 'metric', metric: condition.metric, operator: condition.operator, value: isRatio(condition.metric) ? percentToFraction(value) : value };
    }
    case 'compare': {
      if (!metrics.includes(condition.metric)) check.issue([...path, 'metric'], t('rules.error.metric'));
      if (!othersAt(level).includes(condition.other)) check.issue([...path, 'other'], t('rules.error.other'));
      const coefficient = check.decimal([...path, 'coefficient'], condition.coefficient, { positive: true });
      if (coefficient === null) return null;
      return { type: 'compare', metric: condition.metric, operator: condition.operator, other: condition.other, coefficient };
    }
    case 'status':
    case 'matchType': {
      const allowed = condition.type === 'status' ? STATUSES[level] : MATCH_TYPES;
      if (condition.values.length === 0) return check.fail([...path, 'values'], t('rules.error.pickOne'));
      const wrong = condition.values.findIndex((v) => !allowed.includes(v));
      if (wrong >= 0) return check.fail([...path, 'values'], t('rules.error.valueLevel'));
      return { type: condition.type, values: condition.values };
    }
    case 'tag': {
      const values = condition.values.map((v) => v.trim()).filter((v) => v !== '');
      if (values.length === 0) return check.fail([...path, 'values'], t('rules.error.pickOne'));
      return { type: 'tag', values };
    }
    case 'name': {
      const value = condition.value.trim();
      if (value === '') return check.fail([...path, 'value'], t('rules.error.required'));
      return { type: 'name', operator: condition.operator, value };
    }
  }
}

/**
 * A Cohort metric (`roasD7`, `revenueD7`) is judged only on installs at least N days old, so
 * the server refuses a rule whose window does not start N + 1 or more days ago: the same
 * issue on each field naming one (the condition's `metric`, a comparison's `other`), with its
 * message.
 */
export function checkCohortWindow(check: Checker, condition: ConditionForm, window: WindowBody, path: Path) {
  if (condition.type !== 'metric' && condition.type !== 'compare') return;
  const start = windowStartDaysAgo(window);
  const fields: [string, string][] = [['metric', condition.metric]];
  if (condition.type === 'compare') fields.push(['other', condition.other]);
  for (const [field, metric] of fields) {
    const days = cohortDays(metric);
    if (days === null || start >= days + 1) continue;
    check.issue([...path, field], fill(t('rules.error.cohortWindow'), { metric: metricLabel(metric), days, start: days + 1 }));
  }
}
