/**
 * What `GET /api/plan/current` and the purchase calls answer (docs/api/plans.md; spec §3
 * Purchase, §4 Plans, Banners, Upsell modals).
 */
import { z } from 'zod';

export const PLANS = ['pro_free', 'pro_limited', 'pro_trial', 'pro_free_trial', 'pro', 'growth', 'growth_trial', 'agency'] as const;
export const planSchema = z.enum(PLANS);
export type Plan = z.infer<typeof planSchema>;

export const bannerSchema = z.object({
  type: z.string(),
  closable: z.boolean(),
  message: z.string(),
  /** The button's text; null when the caller gets none. */
  button: z.string().nullable(),
  /** Said instead of the button to roles that may not upgrade. */
  contactAdmin: z.string().nullable(),
});
export type Banner = z.infer<typeof bannerSchema>;

export const modalSchema = z.object({
  type: z.string(),
  variant: z.string().nullable().optional(),
  title: z.string(),
  info: z.string().nullable(),
  description: z.string(),
  confirm: z.string(),
  confirmEnabled: z.boolean(),
  cancel: z.string().nullable(),
  footer: z.string().nullable(),
  daysLeft: z.number().nullable(),
});
export type UpsellModal = z.infer<typeof modalSchema>;

const limit = z.number().nullable();

export const planLimitsSchema = z.object({
  apps: limit,
  developers: limit,
  campaigns: limit,
  keywordGroups: limit,
  rules: limit,
  rulesCampaigns: limit,
});
export type PlanLimits = z.infer<typeof planLimitsSchema>;

/** What the workspace uses of each limit (`keywordGroups` is per creation: always null). */
export const planUsageSchema = z.object({
  apps: z.number(),
  developers: z.number(),
  campaigns: z.number(),
  keywordGroups: z.number().nullable(),
  rules: z.number(),
  rulesCampaigns: z.number(),
});
export type PlanUsage = z.infer<typeof planUsageSchema>;

export const planAnswerSchema = z.object({
  plan: planSchema,
  freeTrialStatus: z.enum(['TrialStarted', 'TrialEnded', 'NoTrial']),
  previousStatus: z.string().nullable(),
  /** US dollars, a decimal string. */
  lastMonthSpend: z.string(),
  spendThreshold: z.string(),
  offAccountTime: z.number().nullable(),
  daysLeft: z.number().nullable(),
  canUpgrade: z.boolean(),
  limits: planLimitsSchema,
  usage: planUsageSchema,
  banner: bannerSchema.nullable(),
  modal: modalSchema.nullable(),
});
export type PlanAnswer = z.infer<typeof planAnswerSchema>;

export const purchaseSchema = z.object({
  id: z.string(),
  name: z.string(),
  free: z.boolean(),
  trial: z.boolean(),
  full: z.boolean(),
  organization: z.boolean(),
  usedTrial: z.boolean(),
  usedPreTrial: z.boolean(),
  usedGrowthTrial: z.boolean(),
  startedAt: z.number(),
  offAccountTime: z.number().nullable(),
  paymentFailed: z.boolean(),
  suggester: z.boolean(),
});
export type Purchase = z.infer<typeof purchaseSchema>;

/** Plans that include Pro: no Pro trial to offer (the server refuses one). */
export function includesPro(plan: Plan): boolean {
  return plan !== 'pro_free' && plan !== 'pro_limited';
}

/** The highest plans: nothing to upgrade to from the app. */
export function isTopPlan(plan: Plan): boolean {
  return plan === 'growth' || plan === 'agency';
}
