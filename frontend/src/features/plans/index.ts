/**
 * The public face of the plans feature (docs/product.md#4-plans, Banners, Upsell modals): the
 * layout shows `PlanBanner` above every page, `UpgradeButton` in the header and `PlanPrompts` (the
 * upsell and limit modals). The Settings › Subscription screen is in `screens.ts`, loaded
 * lazily by the route table.
 */
export { PlanBanner } from './components/PlanBanner';
export { PlanPrompts } from './components/PlanPrompts';
export { UpgradeButton } from './components/UpgradeButton';
export { currentPlanQuery, useCurrentPlan } from './api/get-current-plan';
export { planKeys } from './api/keys';
export type { Plan, PlanAnswer } from './api/plan';
