/**
 * The whole rule: the form's values, the body of `PUT rules/user` they turn into
 * (`ruleSchema(scope)`), and a rule as the server answers it (`answeredRuleSchema`).
 */
import { z } from 'zod';
import { zRule } from '@/api/generated/zod.gen';
import { t } from '@/i18n';
import { entityIdSchema } from '@/lib/ids';
import { actionFormSchema, checkAction, checkTargetWindow, type ActionBody } from './actions';
import { checkCohortWindow, checkCondition, groupFormSchema, type ConditionBody } from './conditions';
import { checkGuardrails, guardrailsFormSchema, type GuardrailsBody } from './guardrails';
import { Checker, fill } from './numbers';
import { checkFrequency, checkWindow, frequencyFormSchema, windowFormSchema, type FrequencyBody, type WindowBody } from './schedule';
import { LEVELS, LOGIC, MAX_ACTIONS, MAX_CONDITIONS, MAX_GROUPS, NAME_MAX, RULE_VERSION, type Logic, type RuleLevel } from './vocabulary';

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
  if (window !== null) {
    groups.forEach((group, g) => group.conditions.forEach((c, i) => checkCohortWindow(check, c, window, ['conditions', 'groups', g, 'conditions', i])));
    form.actions.forEach((action, i) => checkTargetWindow(check, action, window, ['actions', i]));
  }
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
  const guardrails = checkGuardrails(check, form.guardrails, currency, form.level);

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

/**
 * A stored rule: the document's `Rule` (`zRule`, what `rules/all`, `rules/user` and
 * `rules/user/{id}` answer) with what an answer always holds required (the server's `id`,
 * the `version`, whether it is `enabled`) and `campaignIds` as a list, empty when none.
 */
export const answeredRuleSchema = zRule.required({ id: true, version: true, enabled: true }).extend({
  campaignIds: zRule.shape.campaignIds.transform((ids) => ids ?? []),
});
export type Rule = z.output<typeof answeredRuleSchema>;
