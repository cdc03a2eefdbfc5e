/**
 * The rule schema, version 1 (docs/api/rules.md "A rule"), in the browser: the shapes as zod
 * discriminated unions on `type` (conditions, window, frequency, actions), and the rules the
 * server checks, with the same field paths (`conditions.groups.1.conditions.0.value`,
 * `window.days`, `actions.0.amount`, `guardrails.maxBid`), so a form shows the same field
 * errors before sending as the server answers after.
 *
 * The form holds what the user types (text for numbers and money, ratios as percentages);
 * `ruleSchema(currency)` checks it and turns it into the body the server takes: money as
 * decimal strings with the currency's digits (checked by the quick edits' money rules),
 * ratios as fractions (`5` % → `"0.05"`), days and hours as integers. A rule as the server
 * answers it is the document's `Rule` (`answeredRuleSchema` below).
 */
import { z } from 'zod';
import { zRule } from '@/api/generated/zod.gen';
import { moneyProblem, type MoneySign } from '@/lib/money';
import { t } from '@/i18n';
import { currencyDigits } from '@/lib/format';
import { entityIdSchema } from '@/lib/ids';

export const RULE_VERSION = 1;

export const LEVELS = ['CAMPAIGNS', 'ADGROUPS', 'KEYWORDS', 'SEARCHTERMS'] as const;
export type RuleLevel = (typeof LEVELS)[number];

export const LOGIC = ['AND', 'OR'] as const;
export type Logic = (typeof LOGIC)[number];

export const OPERATORS = ['GREATER_THAN', 'GREATER_THAN_OR_EQUAL', 'LESS_THAN', 'LESS_THAN_OR_EQUAL', 'EQUALS', 'NOT_EQUALS'] as const;
export type Operator = (typeof OPERATORS)[number];
export const OPERATOR_SYMBOL: Record<Operator, string> = {
  GREATER_THAN: '>',
  GREATER_THAN_OR_EQUAL: '≥',
  LESS_THAN: '<',
  LESS_THAN_OR_EQUAL: '≤',
  EQUALS: '=',
  NOT_EQUALS: '≠',
};

export const NAME_OPERATORS = ['CONTAINS', 'DOES_NOT_CONTAIN', 'EQUALS'] as const;
export const MATCH_TYPES = ['EXACT', 'BROAD'] as const;
export const WEEKDAYS = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'] as const;
export const CHANNELS = ['EMAIL', 'SLACK'] as const;

/** Counters: summed over the window (the only metrics `minData` takes). */
export const COUNTER_METRICS = [
  'impressions',
  'taps',
  'installs',
  'newDownloads',
  'redownloads',
  'tapInstalls',
  'viewInstalls',
  'totalInstalls',
  'tapNewDownloads',
  'viewNewDownloads',
  'totalNewDownloads',
  'tapRedownloads',
  'viewRedownloads',
  'totalRedownloads',
] as const;
/** Money metrics, in the campaign group's currency. */
export const MONEY_METRICS = ['localSpend', 'avgCPT', 'avgCPM', 'avgCPA', 'tapAvgCPA', 'viewAvgCPA', 'totalAvgCPA'] as const;
/** Ratios: fractions on the wire, percentages on the screen. */
export const RATIO_METRICS = ['ttr', 'conversionRate', 'tapConversionRate', 'totalConversionRate'] as const;

/** The metrics of the report engine a condition takes, in the order the picker lists them. */
export const METRICS = [
  'localSpend',
  'impressions',
  'taps',
  'installs',
  'newDownloads',
  'redownloads',
  'ttr',
  'avgCPT',
  'avgCPM',
  'avgCPA',
  'conversionRate',
  'IPM',
  'tapInstalls',
  'viewInstalls',
  'totalInstalls',
  'tapNewDownloads',
  'viewNewDownloads',
  'totalNewDownloads',
  'tapRedownloads',
  'viewRedownloads',
  'totalRedownloads',
  'tapAvgCPA',
  'viewAvgCPA',
  'totalAvgCPA',
  'tapConversionRate',
  'totalConversionRate',
  'popularity',
] as const;

export const isRatio = (metric: string) => (RATIO_METRICS as readonly string[]).includes(metric);
export const isMoneyMetric = (metric: string) => (MONEY_METRICS as readonly string[]).includes(metric);
export const isCounter = (metric: string) => (COUNTER_METRICS as readonly string[]).includes(metric);

/** The metrics a condition takes at `level` (popularity only for keywords and search terms). */
export function metricsAt(level: RuleLevel): string[] {
  return METRICS.filter((m) => m !== 'popularity' || level === 'KEYWORDS' || level === 'SEARCHTERMS');
}

/** The entity amounts a `compare` condition takes as `other`, and the levels that have them. */
export const OTHER_AMOUNTS: Record<string, readonly RuleLevel[]> = {
  bid: ['KEYWORDS'],
  defaultBid: ['ADGROUPS', 'KEYWORDS'],
  cpaGoal: ['ADGROUPS', 'KEYWORDS'],
  dailyBudget: LEVELS,
  targetCpa: LEVELS,
  targetCpt: LEVELS,
};

export function othersAt(level: RuleLevel): string[] {
  return [...Object.keys(OTHER_AMOUNTS).filter((o) => OTHER_AMOUNTS[o]?.includes(level)), ...metricsAt(level)];
}

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

export const ACTION_TYPES = ['pause', 'enable', 'setBid', 'changeBid', 'bidToTarget', 'setBudget', 'changeBudget', 'addKeyword', 'addNegative', 'alert'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

/** The levels each action acts at (the contract's table). */
export const ACTION_LEVELS: Record<ActionType, readonly RuleLevel[]> = {
  pause: ['CAMPAIGNS', 'ADGROUPS', 'KEYWORDS'],
  enable: ['CAMPAIGNS', 'ADGROUPS', 'KEYWORDS'],
  setBid: ['ADGROUPS', 'KEYWORDS'],
  changeBid: ['ADGROUPS', 'KEYWORDS'],
  bidToTarget: ['ADGROUPS', 'KEYWORDS'],
  setBudget: ['CAMPAIGNS'],
  changeBudget: ['CAMPAIGNS'],
  addKeyword: ['SEARCHTERMS'],
  addNegative: ['SEARCHTERMS'],
  alert: LEVELS,
};

export const actionsAt = (level: RuleLevel): ActionType[] => ACTION_TYPES.filter((type) => ACTION_LEVELS[type].includes(level));

export const MAX_GROUPS = 10;
export const MAX_CONDITIONS = 20;
export const MAX_ACTIONS = 5;
export const NAME_MAX = 100;
export const MAX_DAYS = 365;
export const DEFAULT_STEP_PERCENT = '20';
export const DEFAULT_MAX_ENTITIES = 1000;

// ---- The form's values: what the user types -------------------------------------------

/** A number typed in a field, or a number a default put there. */
const typed = z.union([z.string(), z.number()]);
const operator = z.enum(OPERATORS);

const metricCondition = z.object({ type: z.literal('metric'), metric: z.string(), operator, value: typed });
const compareCondition = z.object({ type: z.literal('compare'), metric: z.string(), operator, other: z.string(), coefficient: typed });
const statusCondition = z.object({ type: z.literal('status'), values: z.array(z.string()) });
const nameCondition = z.object({ type: z.literal('name'), operator: z.enum(NAME_OPERATORS), value: z.string() });
const tagCondition = z.object({ type: z.literal('tag'), values: z.array(z.string()) });
const matchTypeCondition = z.object({ type: z.literal('matchType'), values: z.array(z.string()) });

export const conditionFormSchema = z.discriminatedUnion('type', [metricCondition, compareCondition, statusCondition, nameCondition, tagCondition, matchTypeCondition]);
export type ConditionForm = z.input<typeof conditionFormSchema>;

const groupFormSchema = z.object({ operator: z.enum(LOGIC), conditions: z.array(conditionFormSchema) });
export type GroupForm = z.input<typeof groupFormSchema>;

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

const by = z.enum(['PERCENT', 'AMOUNT']);
const matchType = z.enum(MATCH_TYPES);

export const actionFormSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('pause') }),
  z.object({ type: z.literal('enable') }),
  z.object({ type: z.literal('setBid'), amount: typed }),
  z.object({ type: z.literal('changeBid'), by, value: typed }),
  z.object({ type: z.literal('bidToTarget'), target: z.enum(['CPA', 'CPT']), amount: typed, maxStepPercent: typed }),
  z.object({ type: z.literal('setBudget'), amount: typed }),
  z.object({ type: z.literal('changeBudget'), by, value: typed }),
  z.object({ type: z.literal('addKeyword'), campaignId: z.string(), adGroupId: z.string(), matchType, bid: typed }),
  z.object({ type: z.literal('addNegative'), where: z.enum(['AD_GROUP', 'CAMPAIGN']), matchType }),
  z.object({ type: z.literal('alert'), channels: z.array(z.enum(CHANNELS)), emails: z.array(z.string()) }),
]);
export type ActionForm = z.input<typeof actionFormSchema>;

const guardrailsFormSchema = z.object({
  minBid: typed,
  maxBid: typed,
  minBudget: typed,
  maxBudget: typed,
  maxChangePercent: typed,
  maxEntities: typed,
  minData: z.array(z.object({ metric: z.string(), value: typed })),
});
export type GuardrailsForm = z.input<typeof guardrailsFormSchema>;

export const ruleFormSchema = z.object({
  name: z.string(),
  enabled: z.boolean(),
  level: z.enum(LEVELS),
  campaignIds: z.array(z.string()),
  conditions: z.object({ operator: z.enum(LOGIC), groups: z.array(groupFormSchema) }),
  window: windowFormSchema,
  frequency: frequencyFormSchema,
  actions: z.array(actionFormSchema),
  guardrails: guardrailsFormSchema,
});
export type RuleForm = z.input<typeof ruleFormSchema>;

// ---- The body the server takes (and answers) ---------------------------------------------

export type ConditionBody =
  | { type: 'metric'; metric: string; operator: Operator; value: string }
  | { type: 'compare'; metric: string; operator: Operator; other: string; coefficient: string }
  | { type: 'status' | 'tag' | 'matchType'; values: string[] }
  | { type: 'name'; operator: (typeof NAME_OPERATORS)[number]; value: string };

export type WindowBody = { type: 'last'; days: number; excludeToday: boolean } | { type: 'between'; fromDaysAgo: number; toDaysAgo: number };
export type FrequencyBody = { type: 'hourly' } | { type: 'daily'; hour: number } | { type: 'weekly'; weekday: (typeof WEEKDAYS)[number]; hour: number };

export type ActionBody =
  | { type: 'pause' | 'enable' }
  | { type: 'setBid' | 'setBudget'; amount: string }
  | { type: 'changeBid' | 'changeBudget'; by: 'PERCENT' | 'AMOUNT'; value: string }
  | { type: 'bidToTarget'; target: 'CPA' | 'CPT'; amount: string | null; maxStepPercent: string }
  | { type: 'addKeyword'; campaignId: string; adGroupId: string; matchType: string; bid: string | null }
  | { type: 'addNegative'; where: 'AD_GROUP' | 'CAMPAIGN'; matchType: string }
  | { type: 'alert'; channels: string[]; emails: string[] };

export interface GuardrailsBody {
  minBid: string | null;
  maxBid: string | null;
  minBudget: string | null;
  maxBudget: string | null;
  maxChangePercent: string | null;
  maxEntities: number | null;
  minData: { metric: string; value: string }[];
}

export interface RuleBody {
  version: 1;
  name: string;
  enabled: boolean;
  accountId: string;
  orgId: string;
  level: RuleLevel;
  campaignIds: string[];
  conditions: { operator: Logic; groups: { operator: Logic; conditions: ConditionBody[] }[] };
  window: WindowBody;
  frequency: FrequencyBody;
  actions: ActionBody[];
  guardrails: GuardrailsBody;
}

/** The campaign group a rule acts in: where it is saved, and its money's currency. */
export interface RuleScope {
  accountId: string;
  orgId: string;
  currency: string | null;
}

// ---- Numbers as text -------------------------------------------------------------------

/** The text of a typed number without spaces (thin and no-break ones included). */
const clean = (input: string | number) => (typeof input === 'number' ? String(input) : input.replace(/[\s\u00a0\u202f]/g, ''));

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** `text` (a decimal) with its point moved `shift` places (−2: percent → fraction), exactly. */
export function shiftDecimal(text: string, shift: number): string {
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? text.slice(1) : text).split('.');
  let digits = whole + fraction;
  let point = whole.length + shift;
  if (point <= 0) {
    digits = '0'.repeat(1 - point) + digits;
    point = 1;
  }
  if (point > digits.length) digits += '0'.repeat(point - digits.length);
  const intPart = digits.slice(0, point).replace(/^0+(?=\d)/, '');
  const fracPart = digits.slice(point).replace(/0+$/, '');
  const result = fracPart ? `${intPart}.${fracPart}` : intPart;
  return negative && /[1-9]/.test(result) ? `-${result}` : result;
}

export const percentToFraction = (percent: string) => shiftDecimal(percent, -2);
export const fractionToPercent = (fraction: string) => shiftDecimal(fraction, 2);

function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (_, key: string) => String(values[key] ?? ''));
}

// ---- The checks -------------------------------------------------------------------------

type Path = (string | number)[];

/** Collects issues at paths while a form is turned into a body. */
class Checker {
  constructor(private readonly ctx: z.RefinementCtx) {}
  failed = false;

  issue(path: Path, message: string) {
    this.failed = true;
    this.ctx.addIssue({ code: 'custom', path, message });
  }

  /** An issue, and nothing to send. */
  fail(path: Path, message: string): null {
    this.issue(path, message);
    return null;
  }

  /** A decimal number (`min` and `max` bound it, `positive` refuses 0), as clean text. */
  decimal(path: Path, input: string | number, { min, max, positive = false, integer = false }: { min?: number; max?: number; positive?: boolean; integer?: boolean } = {}): string | null {
    const text = clean(input).replace(/^\+/, '');
    if (text === '') return this.fail(path, t('rules.error.required'));
    if (!DECIMAL.test(text)) return this.fail(path, t('rules.error.number'));
    const value = Number(text);
    if (integer && !Number.isInteger(value)) return this.fail(path, t('rules.error.whole'));
    if (positive && value <= 0) return this.fail(path, t('rules.error.positive'));
    if (min !== undefined && value < min) return this.fail(path, fill(t('rules.error.min'), { min }));
    if (max !== undefined && value > max) return this.fail(path, fill(t('rules.error.max'), { max }));
    return text;
  }

  /** A whole number within `min`..`max`. */
  integer(path: Path, input: string | number, min: number, max: number): number | null {
    const text = this.decimal(path, input, { integer: true });
    if (text === null) return null;
    const value = Number(text);
    if (value < min || value > max) return this.fail(path, fill(t('rules.error.range'), { min, max }));
    return value;
  }

  /** An amount of money in `currency` (the quick edits' rules), as the server's decimal text. */
  money(path: Path, input: string | number, currency: string | null, label: string, sign: MoneySign = 'positive'): string | null {
    const problem = moneyProblem('amount', currency, input, { label, minimum: false, sign });
    if (problem !== null) return this.fail(path, problem);
    return Number(clean(input)).toFixed(currencyDigits(currency));
  }

  /** Optional money: empty is null. */
  optionalMoney(path: Path, input: string | number, currency: string | null, label: string, sign: MoneySign = 'positive'): string | null {
    return clean(input) === '' ? null : this.money(path, input, currency, label, sign);
  }
}

function checkCondition(check: Checker, condition: ConditionForm, level: RuleLevel, currency: string | null, path: Path): ConditionBody | null {
  if (!conditionTypesAt(level).includes(condition.type)) {
    check.issue([...path, 'type'], t('rules.error.conditionLevel'));
    return null;
  }
  const metrics = metricsAt(level);
  switch (condition.type) {
    case 'metric': {
      if (!metrics.includes(condition.metric)) check.issue([...path, 'metric'], t('rules.error.metric'));
      const value = check.decimal([...path, 'value'], condition.value, { min: 0 });
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

function checkWindow(check: Checker, window: WindowForm): WindowBody | null {
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

function checkFrequency(check: Checker, frequency: FrequencyForm): FrequencyBody | null {
  if (frequency.type === 'hourly') return { type: 'hourly' };
  const hour = check.integer(['frequency', 'hour'], frequency.hour, 0, 23);
  if (hour === null) return null;
  return frequency.type === 'daily' ? { type: 'daily', hour } : { type: 'weekly', weekday: frequency.weekday, hour };
}

function checkAction(check: Checker, action: ActionForm, rule: RuleForm, currency: string | null, path: Path): ActionBody | null {
  if (!ACTION_LEVELS[action.type].includes(rule.level)) return check.fail([...path, 'type'], t('rules.error.actionLevel'));
  switch (action.type) {
    case 'pause':
    case 'enable':
      return { type: action.type };
    case 'setBid':
    case 'setBudget': {
      const label = t(action.type === 'setBid' ? 'rules.action.bid' : 'rules.action.budget');
      const amount = check.money([...path, 'amount'], action.amount, currency, label);
      return amount === null ? null : { type: action.type, amount };
    }
    case 'changeBid':
    case 'changeBudget': {
      const value =
        action.by === 'PERCENT'
          ? check.decimal([...path, 'value'], action.value, { min: -100 })
          : check.money([...path, 'value'], action.value, currency, t('rules.action.change'), 'nonZero');
      if (value === null) return null;
      if (Number(value) === 0) return check.fail([...path, 'value'], t('rules.error.nonZero'));
      return { type: action.type, by: action.by, value };
    }
    case 'bidToTarget': {
      const amount = check.optionalMoney([...path, 'amount'], action.amount, currency, t('rules.action.target'));
      const step = check.decimal([...path, 'maxStepPercent'], clean(action.maxStepPercent) === '' ? DEFAULT_STEP_PERCENT : action.maxStepPercent, { min: 1, max: 100 });
      if (step === null || (amount === null && clean(action.amount) !== '')) return null;
      return { type: 'bidToTarget', target: action.target, amount, maxStepPercent: step };
    }
    case 'addKeyword': {
      if (!rule.campaignIds.includes(action.campaignId)) check.issue([...path, 'campaignId'], t('rules.error.ruleCampaign'));
      if (action.adGroupId === '') check.issue([...path, 'adGroupId'], t('rules.error.required'));
      const bid = check.optionalMoney([...path, 'bid'], action.bid, currency, t('rules.action.bid'));
      if (!rule.campaignIds.includes(action.campaignId) || action.adGroupId === '' || (bid === null && clean(action.bid) !== '')) return null;
      return { type: 'addKeyword', campaignId: action.campaignId, adGroupId: action.adGroupId, matchType: action.matchType, bid };
    }
    case 'addNegative':
      return { type: 'addNegative', where: action.where, matchType: action.matchType };
    case 'alert': {
      if (action.channels.length === 0) return check.fail([...path, 'channels'], t('rules.error.pickOne'));
      const emails = action.emails.map((e) => e.trim()).filter((e) => e !== '');
      const wrong = emails.findIndex((e) => !z.email().safeParse(e).success);
      if (wrong >= 0) return check.fail([...path, 'emails'], t('common.invalidEmail'));
      return { type: 'alert', channels: action.channels, emails };
    }
  }
}

function checkGuardrails(check: Checker, g: GuardrailsForm, currency: string | null): GuardrailsBody {
  const at = (field: string): Path => ['guardrails', field];
  const minBid = check.optionalMoney(at('minBid'), g.minBid, currency, t('rules.guard.minBid'), 'zeroOrMore');
  const maxBid = check.optionalMoney(at('maxBid'), g.maxBid, currency, t('rules.guard.maxBid'), 'zeroOrMore');
  const minBudget = check.optionalMoney(at('minBudget'), g.minBudget, currency, t('rules.guard.minBudget'), 'zeroOrMore');
  const maxBudget = check.optionalMoney(at('maxBudget'), g.maxBudget, currency, t('rules.guard.maxBudget'), 'zeroOrMore');
  if (minBid !== null && maxBid !== null && Number(minBid) > Number(maxBid)) check.issue(at('maxBid'), t('rules.error.minMax'));
  if (minBudget !== null && maxBudget !== null && Number(minBudget) > Number(maxBudget)) check.issue(at('maxBudget'), t('rules.error.minMax'));
  const maxChangePercent = clean(g.maxChangePercent) === '' ? null : check.decimal(at('maxChangePercent'), g.maxChangePercent, { min: 1, max: 1000 });
  const maxEntities = clean(g.maxEntities) === '' ? null : check.integer(at('maxEntities'), g.maxEntities, 1, 10_000);
  const minData = g.minData.flatMap((row, i) => {
    if (!isCounter(row.metric)) check.issue(['guardrails', 'minData', i, 'metric'], t('rules.error.counter'));
    const value = check.decimal(['guardrails', 'minData', i, 'value'], row.value, { min: 0 });
    return value === null ? [] : [{ metric: row.metric, value }];
  });
  return { minBid, maxBid, minBudget, maxBudget, maxChangePercent, maxEntities, minData };
}

/**
 * The form's values turned into the body of `PUT rules/user`, with the server's rules as
 * issues; null when any failed.
 */
export function toRuleBody(form: RuleForm, scope: RuleScope, ctx: z.RefinementCtx): RuleBody | null {
  const check = new Checker(ctx);
  const { currency } = scope;
  const name = form.name.trim();
  if (name === '') check.issue(['name'], t('rules.error.name'));
  else if (name.length > NAME_MAX) check.issue(['name'], fill(t('rules.error.nameLong'), { max: NAME_MAX }));
  form.campaignIds.forEach((id, i) => {
    if (!entityIdSchema.safeParse(id).success) check.issue(['campaignIds', i], t('rules.error.campaign'));
  });

  const { groups } = form.conditions;
  if (groups.length === 0) check.issue(['conditions', 'groups'], t('rules.error.groupsMin'));
  if (groups.length > MAX_GROUPS) check.issue(['conditions', 'groups'], fill(t('rules.error.groupsMax'), { max: MAX_GROUPS }));
  const bodyGroups = groups.map((group, g) => {
    if (group.conditions.length === 0) check.issue(['conditions', 'groups', g, 'conditions'], t('rules.error.conditionsMin'));
    if (group.conditions.length > MAX_CONDITIONS) check.issue(['conditions', 'groups', g, 'conditions'], fill(t('rules.error.conditionsMax'), { max: MAX_CONDITIONS }));
    const conditions = group.conditions.map((c, i) => checkCondition(check, c, form.level, currency, ['conditions', 'groups', g, 'conditions', i]));
    return { operator: group.operator, conditions: conditions.filter((c): c is ConditionBody => c !== null) };
  });

  const window = checkWindow(check, form.window);
  const frequency = checkFrequency(check, form.frequency);

  if (form.actions.length === 0) check.issue(['actions'], t('rules.error.actionsMin'));
  if (form.actions.length > MAX_ACTIONS) check.issue(['actions'], fill(t('rules.error.actionsMax'), { max: MAX_ACTIONS }));
  const seen = new Set<string>();
  const actions = form.actions.map((action, i) => {
    if (seen.has(action.type)) {
      check.issue(['actions', i, 'type'], t('rules.error.actionTwice'));
      return null;
    }
    seen.add(action.type);
    return checkAction(check, action, form, currency, ['actions', i]);
  });
  const guardrails = checkGuardrails(check, form.guardrails, currency);

  if (check.failed || window === null || frequency === null) return null;
  return {
    version: RULE_VERSION,
    name,
    enabled: form.enabled,
    accountId: scope.accountId,
    orgId: scope.orgId,
    level: form.level,
    campaignIds: form.campaignIds,
    conditions: { operator: form.conditions.operator, groups: bodyGroups },
    window,
    frequency,
    actions: actions.filter((a): a is ActionBody => a !== null),
    guardrails,
  };
}

/**
 * The schema of the rule form in campaign group `scope`: what the user typed, checked with
 * the server's rules (issues at the server's paths), turned into the body the server takes.
 */
export function ruleSchema(scope: RuleScope): z.ZodType<RuleBody, RuleForm> {
  return ruleFormSchema.transform((form, ctx) => {
    const body = toRuleBody(form, scope, ctx);
    return body ?? z.NEVER;
  });
}

// ---- The rule as the server answers it --------------------------------------------------

/**
 * A stored rule: the document's `Rule` (`zRule`, what `rules/all`, `rules/user` and
 * `rules/user/{id}` answer) with what an answer always holds required (the server's `id`,
 * the `version`, whether it is `enabled`) and `campaignIds` as a list, empty when none.
 */
export const answeredRuleSchema = zRule.required({ id: true, version: true, enabled: true }).extend({
  campaignIds: zRule.shape.campaignIds.transform((ids) => ids ?? []),
});
export type Rule = z.output<typeof answeredRuleSchema>;
