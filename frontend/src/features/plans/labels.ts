/** The names the screens give plans, trial statuses and purchases. */
import { t } from '@/i18n';
import type { Plan, PlanAnswer, Purchase } from './api/plan';

export function planLabel(plan: Plan): string {
  return t(`plans.plan.${plan}`);
}

export function trialStatusLabel(status: PlanAnswer['freeTrialStatus']): string {
  return t(`plans.trialStatus.${status}`);
}

/** A purchase's kind: the Pro trial, the pre-trial, the Growth trial, paid or free. */
export function purchaseKind(p: Purchase): string {
  if (p.trial) return t(p.organization ? 'plans.kind.growthTrial' : 'plans.kind.trial');
  if (p.full) return t('plans.kind.paid');
  return t('plans.kind.free');
}

export type PurchaseStatus = 'active' | 'ended' | 'paymentFailed' | 'upcoming';

/** Where a purchase stands at `now` (docs/api/plans.md "in force"). */
export function purchaseStatus(p: Purchase, now: number): PurchaseStatus {
  if (p.paymentFailed) return 'paymentFailed';
  if (p.startedAt > now) return 'upcoming';
  if (typeof p.offAccountTime === 'number' && p.offAccountTime <= now) return 'ended';
  return 'active';
}
