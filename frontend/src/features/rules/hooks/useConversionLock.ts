/**
 * Whether the workspace's plan locks the Conversions and Cohort metrics (docs/product.md#6:
 * pro_limited, 'Upgrade to Pro to track events from your MMP.'), as the tables lock those
 * columns: the plan of `plan/current` (which the layout reads already) and the groups the
 * report catalog says it locks (`proLockedGroups`). Until the plan is known nothing is locked:
 * the server refuses what the plan does not allow.
 */
import { useCurrentPlan } from '@/features/plans';
import { PRO_LOCKED_GROUPS, type ConversionGroup } from '@/lib/report-catalog';

const NONE: readonly ConversionGroup[] = [];

/** The metric groups the plan locks (none unless pro_limited). */
export function useConversionLock(): readonly ConversionGroup[] {
  const plan = useCurrentPlan();
  return plan.data?.plan === 'pro_limited' ? PRO_LOCKED_GROUPS : NONE;
}
