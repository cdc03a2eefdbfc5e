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
 * answers it is the document's `Rule` (`answeredRuleSchema` in `rule.ts`).
 *
 * By part: the words and limits (`vocabulary.ts`), the metrics (`metrics.ts`), conditions
 * (`conditions.ts`), the window and frequency (`schedule.ts`), actions (`actions.ts`),
 * guardrails (`guardrails.ts`), numbers as text and the checker (`numbers.ts`), and the
 * whole rule (`rule.ts`, which also holds a Cohort metric's window to its age:
 * `checkCohortWindow` in `conditions.ts`).
 */
export {
  CHANNELS,
  DEFAULT_MAX_ENTITIES,
  DEFAULT_STEP_PERCENT,
  LEVELS,
  LOGIC,
  MATCH_TYPES,
  MAX_ACTIONS,
  MAX_CONDITIONS,
  MAX_DAYS,
  MAX_GROUPS,
  NAME_MAX,
  NAME_OPERATORS,
  OPERATOR_SYMBOL,
  OPERATORS,
  RULE_VERSION,
  WEEKDAYS,
  type Logic,
  type Operator,
  type RuleLevel,
} from './vocabulary';
export {
  cohortDays,
  CONVERSION_LEVELS,
  CONVERSION_RULE_METRICS,
  COUNTER_METRICS,
  countersAt,
  hasConversions,
  isConversionCount,
  isConversionMetric,
  isCounter,
  isMoneyMetric,
  isRatio,
  levelHas,
  metricGroupOf,
  METRICS,
  metricsAt,
  MONEY_METRICS,
  OTHER_AMOUNTS,
  othersAt,
  RATIO_METRICS,
  type MetricGroup,
} from './metrics';
export { CONDITION_TYPES, conditionFormSchema, conditionTypesAt, STATUSES, type ConditionBody, type ConditionForm, type ConditionType, type GroupForm } from './conditions';
export { frequencyFormSchema, windowFormSchema, windowStartDaysAgo, type FrequencyBody, type FrequencyForm, type WindowBody, type WindowForm } from './schedule';
export { ACTION_LEVELS, ACTION_TYPES, actionFormSchema, actionsAt, BID_TARGETS, isReturnTarget, needsTargetAmount, type ActionBody, type ActionForm, type ActionType, type BidTarget } from './actions';
export { type GuardrailsBody, type GuardrailsForm } from './guardrails';
export { fractionToPercent, percentToFraction, shiftDecimal } from './numbers';
export { answeredRuleSchema, ruleFormSchema, ruleSchema, toRuleBody, type Rule, type RuleBody, type RuleForm, type RuleScope } from './rule';
