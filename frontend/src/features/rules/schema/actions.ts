/**
 * A rule's actions (docs/api/rules.md "Actions"): the levels each acts at, the form's shapes
 * as a zod discriminated union on `type`, the body's, and the check that turns one into the
 * other (`actions.0.amount`).
 */
import { z } from 'zod';
import { zTarget } from '@/api/generated/zod.gen';
import { t } from '@/i18n';
import { type Checker, clean, fill, percentToFraction, typed, type Path } from './numbers';
import { windowStartDaysAgo, type WindowBody } from './schedule';
import { CHANNELS, DEFAULT_STEP_PERCENT, LEVELS, MATCH_TYPES, type RuleLevel } from './vocabulary';

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

const by = z.enum(['PERCENT', 'AMOUNT']);
const matchType = z.enum(MATCH_TYPES);

export const actionFormSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('pause') }),
  z.object({ type: z.literal('enable') }),
  z.object({ type: z.literal('setBid'), amount: typed }),
  z.object({ type: z.literal('changeBid'), by, value: typed }),
  z.object({ type: z.literal('bidToTarget'), target: zTarget, amount: typed, maxStepPercent: typed }),
  z.object({ type: z.literal('setBudget'), amount: typed }),
  z.object({ type: z.literal('changeBudget'), by, value: typed }),
  z.object({ type: z.literal('addKeyword'), campaignId: z.string(), adGroupId: z.string(), matchType, bid: typed }),
  z.object({ type: z.literal('addNegative'), where: z.enum(['AD_GROUP', 'CAMPAIGN']), matchType }),
  z.object({ type: z.literal('alert'), channels: z.array(z.enum(CHANNELS)), emails: z.array(z.string()) }),
]);
export type ActionForm = z.input<typeof actionFormSchema>;

export type ActionBody =
  | { type: 'pause' | 'enable' }
  | { type: 'setBid' | 'setBudget'; amount: string }
  | { type: 'changeBid' | 'changeBudget'; by: 'PERCENT' | 'AMOUNT'; value: string }
  | { type: 'bidToTarget'; target: BidTarget; amount: string | null; maxStepPercent: string }
  | { type: 'addKeyword'; campaignId: string; adGroupId: string; matchType: string; bid: string | null }
  | { type: 'addNegative'; where: 'AD_GROUP' | 'CAMPAIGN'; matchType: string }
  | { type: 'alert'; channels: string[]; emails: string[] };

/** What `bidToTarget` aims at (the document's `Target`): Apple's CPA or CPT, a cost per trial or purchase, a cohort ROAS. */
export type BidTarget = z.infer<typeof zTarget>;
export const BID_TARGETS: readonly BidTarget[] = zTarget.options;

/** A ROAS target: typed as a percentage, sent as a fraction (120 % → "1.2"). */
export const isReturnTarget = (target: BidTarget) => target.startsWith('ROAS_');

/** Targets without a goal to fall back on: the amount is required. */
export const needsTargetAmount = (target: BidTarget) => target !== 'CPA' && target !== 'CPT';

/** What an action's check reads of the rule: its level and the campaigns it acts in. */
type RuleOf = { level: RuleLevel; campaignIds: string[] };

export function checkAction(check: Checker, action: ActionForm, rule: RuleOf, currency: string | null, path: Path): ActionBody | null {
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
      const typedAmount = clean(action.amount);
      if (typedAmount === '' && needsTargetAmount(action.target)) return check.fail([...path, 'amount'], t('rules.error.required'));
      const ratio = isReturnTarget(action.target) ? check.decimal([...path, 'amount'], action.amount, { positive: true, max: 100_000 }) : null;
      const amount = isReturnTarget(action.target)
        ? ratio === null
          ? null
          : percentToFraction(ratio)
        : check.optionalMoney([...path, 'amount'], action.amount, currency, t('rules.action.target'));
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

/**
 * A ROAS DN target is judged only on installs at least N days old, as a Cohort metric in a
 * condition is (`checkCohortWindow`): the server refuses a window that does not start N + 1
 * or more days ago, on the action's `target`.
 */
export function checkTargetWindow(check: Checker, action: ActionForm, window: WindowBody, path: Path) {
  if (action.type !== 'bidToTarget' || !isReturnTarget(action.target)) return;
  const days = Number(action.target.slice('ROAS_D'.length));
  if (windowStartDaysAgo(window) >= days + 1) return;
  check.issue([...path, 'target'], fill(t('rules.error.cohortWindow'), { metric: t(`rules.target.${action.target}`), days, start: days + 1 }));
}
