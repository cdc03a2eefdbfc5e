/** GET /api/plan/current: the plan, its limits, and the banner and upsell modal that apply now. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type CallOptions } from '@/lib/api-client';
import { planKeys, type PlanContext } from './keys';
import { planAnswerSchema, type PlanAnswer } from './plan';

/** The answer changes with the clock (windows of hours): asked again every 5 minutes. */
export const PLAN_REFRESH_MS = 5 * 60_000;

export async function getCurrentPlan(context: PlanContext = 'default', { signal }: CallOptions = {}): Promise<PlanAnswer> {
  const query = context === 'integrations' ? { context } : undefined;
  return api.get('/plan/current', planAnswerSchema, { query, signal });
}

export const currentPlanQuery = (context: PlanContext = 'default') =>
  queryOptions({
    queryKey: planKeys.current(context),
    queryFn: ({ signal }) => getCurrentPlan(context, { signal }),
    refetchInterval: PLAN_REFRESH_MS,
  });

export function useCurrentPlan(context: PlanContext = 'default') {
  return useQuery(currentPlanQuery(context));
}
