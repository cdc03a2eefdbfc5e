/**
 * What `GET /api/plan/current` and the purchase calls answer (docs/api/plans.md;
 * docs/product.md#3-purchase Purchase, docs/product.md#4-plans, Banners, Upsell modals).
 */
import type { z } from 'zod';
import { zBanner, zModal, zPlan, zPlanAnswer, zPlanLimits, zPlanUsage, zPurchaseItem } from '@/api/generated/zod.gen';

export const PLANS = zPlan.options;
export const planSchema = zPlan;
export type Plan = z.infer<typeof planSchema>;

/** The top banner: its button's text null when the caller gets none (`contactAdmin` then). */
export const bannerSchema = zBanner;
export type Banner = z.infer<typeof bannerSchema>;

export const modalSchema = zModal;
export type UpsellModal = z.infer<typeof modalSchema>;

export const planLimitsSchema = zPlanLimits;
export type PlanLimits = z.infer<typeof planLimitsSchema>;

/** What the workspace uses of each limit (`keywordGroups` is per creation: always null). */
export const planUsageSchema = zPlanUsage;
export type PlanUsage = z.infer<typeof planUsageSchema>;

/** `plan/current` (the document's `PlanAnswer`): last month's spend in US dollars, a decimal string. */
export const planAnswerSchema = zPlanAnswer;
export type PlanAnswer = z.infer<typeof planAnswerSchema>;

export const purchaseSchema = zPurchaseItem;
export type Purchase = z.infer<typeof purchaseSchema>;

/** Plans that include Pro: no Pro trial to offer (the server refuses one). */
export function includesPro(plan: Plan): boolean {
  return plan !== 'pro_free' && plan !== 'pro_limited';
}

/** The highest plans: nothing to upgrade to from the app. */
export function isTopPlan(plan: Plan): boolean {
  return plan === 'growth' || plan === 'agency';
}
