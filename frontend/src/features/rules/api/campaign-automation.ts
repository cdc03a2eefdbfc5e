/**
 * What the campaigns table changes of one campaign's automation (docs/api/rules.md Routes):
 * its goal optimisation — the types (`GET optimization/all/rules?accountId&orgId`) and the
 * setting (`PUT optimization/one/{campaignId}?accountId&orgId` with `{type, target,
 * maxStepPercent, cohortDay}`, `type` null turning it off) — and the rules attached to it: `POST
 * rules/rulesCampaigns/many/{campaignId}` sets them exactly, `PUT
 * rules/rulesCampaigns/toggleRule` turns an attached rule off or on for the campaign only.
 */
import { queryOptions, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { OptimizationBody, RuleToggle, RulesOfCampaign } from '@/api/generated/types.gen';
import { zEnvelopeAllOptimizations, zEnvelopeItemOptionOptimizationItem, type zOptimizationItem, type zOptimizationTypeItem } from '@/api/generated/zod.gen';
import { api, apiRequest, emptyResultSchema } from '@/lib/api-client';
import { ruleKeys } from './keys';
import type { GroupScope } from './rules';

/** A goal optimisation type with its description and defaults (`OptimizationTypeItem`). */
export type OptimizationType = z.infer<typeof zOptimizationTypeItem>;

/** A campaign's goal optimisation (`OptimizationItem`). */
export type GoalSetting = z.infer<typeof zOptimizationItem>;

const allSchema = zEnvelopeAllOptimizations.shape.result;

export const optimizationKeys = {
  all: (scope: GroupScope) => [...ruleKeys.all, 'optimization', scope.accountId, scope.orgId] as const,
};

/** The optimisation types and the group's optimised campaigns. */
export function useOptimizations(scope: GroupScope | null) {
  return useQuery(
    queryOptions({
      queryKey: optimizationKeys.all(scope ?? { accountId: '', orgId: '' }),
      queryFn: scope ? ({ signal }) => api.get('/optimization/all/rules', allSchema, { query: { accountId: scope.accountId, orgId: scope.orgId }, signal }) : skipToken,
    }),
  );
}

export interface GoalChange {
  /** Null turns the optimisation off. */
  type: OptimizationType['type'] | null;
  target: string | null;
  maxStepPercent: string | null;
  /** A ROAS goal's cohort (days after the install); null for the other types. */
  cohortDay?: number | null;
}

/** Sets (or turns off) campaign `campaignId`'s goal optimisation. */
export async function putGoal(scope: GroupScope, campaignId: string, change: GoalChange): Promise<GoalSetting | null> {
  const body: OptimizationBody = change.type === null ? { type: null } : { type: change.type, target: change.target, maxStepPercent: change.maxStepPercent, cohortDay: change.cohortDay ?? null };
  const { item } = await apiRequest(`/optimization/one/${encodeURIComponent(campaignId)}`, {
    method: 'PUT',
    body,
    schema: zEnvelopeItemOptionOptimizationItem.shape.result,
    query: { accountId: scope.accountId, orgId: scope.orgId },
  });
  return item ?? null;
}

export function usePutGoal(scope: GroupScope, campaignId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: GoalChange) => putGoal(scope, campaignId, change),
    onSuccess: () => client.invalidateQueries({ queryKey: optimizationKeys.all(scope) }),
  });
}

/** Sets the rules attached to campaign `campaignId` to exactly `ruleIds`. */
export async function setCampaignRules(campaignId: string, ruleIds: string[]): Promise<void> {
  await api.post(`/rules/rulesCampaigns/many/${encodeURIComponent(campaignId)}`, { rulesIds: ruleIds } satisfies RulesOfCampaign, emptyResultSchema);
}

/** Turns rule `ruleId` off or on for campaign `campaignId` only (it stays attached). */
export async function toggleCampaignRule(ruleId: string, campaignId: string, enabled: boolean): Promise<void> {
  await api.put('/rules/rulesCampaigns/toggleRule', { ruleId, campaignId, enabled } satisfies RuleToggle, emptyResultSchema);
}

export function useCampaignRules(scope: GroupScope) {
  const client = useQueryClient();
  const onSuccess = () => client.invalidateQueries({ queryKey: ruleKeys.list(scope.accountId, scope.orgId) });
  return {
    set: useMutation({ mutationFn: ({ campaignId, ruleIds }: { campaignId: string; ruleIds: string[] }) => setCampaignRules(campaignId, ruleIds), onSuccess }),
    toggle: useMutation({
      mutationFn: ({ ruleId, campaignId, enabled }: { ruleId: string; campaignId: string; enabled: boolean }) => toggleCampaignRule(ruleId, campaignId, enabled),
      onSuccess,
    }),
  };
}
