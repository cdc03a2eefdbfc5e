/**
 * The rule form's values: a new rule's defaults, a new condition or action of a type, and a
 * stored rule turned back into what the user edits (fractions as percentages, money and
 * numbers as text, nulls as empty fields).
 */
import {
  BID_TARGETS,
  DEFAULT_STEP_PERCENT,
  fractionToPercent,
  isRatio,
  isReturnTarget,
  STATUSES,
  WEEKDAYS,
  type ActionForm,
  type ActionType,
  type ConditionForm,
  type ConditionType,
  type FrequencyForm,
  type Rule,
  type RuleForm,
  type RuleLevel,
  type WindowForm,
} from './schema';

export function newCondition(type: ConditionType, level: RuleLevel): ConditionForm {
  switch (type) {
    case 'metric':
      return { type, metric: 'localSpend', operator: 'GREATER_THAN', value: '' };
    case 'compare':
      return { type, metric: 'avgCPA', operator: 'GREATER_THAN', other: level === 'ADGROUPS' || level === 'KEYWORDS' ? 'cpaGoal' : 'targetCpa', coefficient: '1' };
    case 'status':
      return { type, values: STATUSES[level].slice(0, 1) };
    case 'name':
      return { type, operator: 'CONTAINS', value: '' };
    case 'tag':
      return { type, values: [] };
    case 'matchType':
      return { type, values: ['EXACT'] };
  }
}

export function newAction(type: ActionType, campaignIds: readonly string[]): ActionForm {
  switch (type) {
    case 'pause':
    case 'enable':
      return { type };
    case 'setBid':
    case 'setBudget':
      return { type, amount: '' };
    case 'changeBid':
    case 'changeBudget':
      return { type, by: 'PERCENT', value: '' };
    case 'bidToTarget':
      return { type, target: 'CPA', amount: '', maxStepPercent: DEFAULT_STEP_PERCENT };
    case 'addKeyword':
      return { type, campaignId: campaignIds[0] ?? '', adGroupId: '', matchType: 'EXACT', bid: '' };
    case 'addNegative':
      return { type, where: 'AD_GROUP', matchType: 'EXACT' };
    case 'alert':
      return { type, channels: ['EMAIL'], emails: [] };
  }
}

export function newWindow(type: WindowForm['type']): WindowForm {
  return type === 'last' ? { type, days: '7', excludeToday: true } : { type, fromDaysAgo: '14', toDaysAgo: '7' };
}

export function newFrequency(type: FrequencyForm['type'], hour = 6): FrequencyForm {
  if (type === 'hourly') return { type };
  return type === 'daily' ? { type, hour } : { type, weekday: 'MONDAY', hour };
}

export function emptyRule(campaignIds: string[] = []): RuleForm {
  return {
    name: '',
    enabled: true,
    level: 'KEYWORDS',
    campaignIds,
    conditions: { operator: 'AND', groups: [{ operator: 'AND', conditions: [newCondition('metric', 'KEYWORDS')] }] },
    window: newWindow('last'),
    frequency: newFrequency('daily'),
    actions: [],
    guardrails: { minBid: '', maxBid: '', minBudget: '', maxBudget: '', maxChangePercent: '', maxEntities: '', minData: [] },
  };
}

const text = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');
const list = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
function oneOf<T extends string>(value: unknown, options: readonly T[], fallback: T): T {
  return options.includes(value as T) ? (value as T) : fallback;
}

function conditionOf(raw: Rule['conditions']['groups'][number]['conditions'][number]): ConditionForm {
  switch (raw.type) {
    case 'metric':
      return { type: 'metric', metric: raw.metric, operator: raw.operator, value: isRatio(raw.metric) && raw.value !== '' ? fractionToPercent(raw.value) : raw.value };
    case 'compare':
      return { type: 'compare', metric: raw.metric, operator: raw.operator, other: raw.other, coefficient: raw.coefficient };
    case 'name':
      return { type: 'name', operator: raw.operator, value: raw.value };
    case 'status':
    case 'tag':
    case 'matchType':
      return { type: raw.type, values: raw.values };
  }
}

function actionOf(raw: Rule['actions'][number]): ActionForm | null {
  const r = raw as Record<string, unknown>;
  switch (raw.type) {
    case 'pause':
    case 'enable':
      return { type: raw.type };
    case 'setBid':
    case 'setBudget':
      return { type: raw.type, amount: text(r.amount) };
    case 'changeBid':
    case 'changeBudget':
      return { type: raw.type, by: oneOf(r.by, ['PERCENT', 'AMOUNT'] as const, 'PERCENT'), value: text(r.value) };
    case 'bidToTarget': {
      const target = oneOf(r.target, BID_TARGETS, 'CPA');
      const amount = text(r.amount);
      return { type: 'bidToTarget', target, amount: isReturnTarget(target) && amount !== '' ? fractionToPercent(amount) : amount, maxStepPercent: text(r.maxStepPercent) || DEFAULT_STEP_PERCENT };
    }
    case 'addKeyword':
      return { type: 'addKeyword', campaignId: text(r.campaignId), adGroupId: text(r.adGroupId), matchType: oneOf(r.matchType, ['EXACT', 'BROAD'] as const, 'EXACT'), bid: text(r.bid) };
    case 'addNegative':
      return { type: 'addNegative', where: oneOf(r.where, ['AD_GROUP', 'CAMPAIGN'] as const, 'AD_GROUP'), matchType: oneOf(r.matchType, ['EXACT', 'BROAD'] as const, 'EXACT') };
    case 'alert':
      return { type: 'alert', channels: list(r.channels).filter((c): c is 'EMAIL' | 'SLACK' => c === 'EMAIL' || c === 'SLACK'), emails: list(r.emails) };
    default:
      return null;
  }
}

/** A stored rule as the form edits it. */
export function ruleToForm(rule: Rule): RuleForm {
  const w = rule.window;
  const f = rule.frequency;
  const g = rule.guardrails;
  return {
    name: rule.name,
    enabled: rule.enabled,
    level: rule.level,
    campaignIds: rule.campaignIds,
    conditions: {
      operator: rule.conditions.operator,
      groups: rule.conditions.groups.map((group) => ({ operator: group.operator, conditions: group.conditions.map(conditionOf) })),
    },
    window:
      w.type === 'between'
        ? { type: 'between', fromDaysAgo: text(w.fromDaysAgo), toDaysAgo: text(w.toDaysAgo) }
        : { type: 'last', days: text(w.days), excludeToday: w.excludeToday ?? true },
    frequency:
      f.type === 'hourly'
        ? { type: 'hourly' }
        : f.type === 'weekly'
          ? { type: 'weekly', weekday: oneOf(f.weekday, WEEKDAYS, 'MONDAY'), hour: f.hour ?? 6 }
          : { type: 'daily', hour: f.hour ?? 6 },
    actions: rule.actions.map(actionOf).filter((a): a is ActionForm => a !== null),
    guardrails: {
      minBid: text(g?.minBid),
      maxBid: text(g?.maxBid),
      minBudget: text(g?.minBudget),
      maxBudget: text(g?.maxBudget),
      maxChangePercent: text(g?.maxChangePercent),
      maxEntities: text(g?.maxEntities),
      minData: (g?.minData ?? []).map((m) => ({ metric: m.metric, value: m.value })),
    },
  };
}
