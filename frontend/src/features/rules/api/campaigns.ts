/**
 * The pickers of the rule form: the campaign group's campaigns (`GET asa/campaigns/list`,
 * the picker list of docs/api/campaigns.md) and a campaign's ad groups (`GET asa/groups/{id}`,
 * where an added keyword goes).
 */
import { skipToken, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api, type CallOptions } from '@/lib/api-client';
import { entityIdSchema } from '@/lib/ids';
import type { GroupScope } from './rules';
import { ruleKeys } from './keys';

const campaignSchema = z.object({ campaignId: entityIdSchema, campaignName: z.string(), status: z.string().nullish(), deleted: z.boolean().nullish() });
export type PickerCampaign = z.infer<typeof campaignSchema>;

export async function getCampaigns(scope: GroupScope, { signal }: CallOptions = {}): Promise<PickerCampaign[]> {
  const { items } = await api.get('/asa/campaigns/list', z.object({ items: z.array(campaignSchema) }), { query: { accountId: scope.accountId, orgId: scope.orgId }, signal });
  return items;
}

export function useGroupCampaigns(scope: GroupScope | null) {
  return useQuery({
    queryKey: ruleKeys.campaigns(scope?.accountId ?? '', scope?.orgId ?? ''),
    queryFn: scope ? ({ signal }) => getCampaigns(scope, { signal }) : skipToken,
    staleTime: 5 * 60_000,
  });
}

const adGroupSchema = z.object({ adGroupId: entityIdSchema, adGroupName: z.string() });

export function useAdGroups(scope: GroupScope, campaignId: string) {
  return useQuery({
    queryKey: ruleKeys.adGroups(scope.accountId, scope.orgId, campaignId),
    queryFn:
      campaignId === ''
        ? skipToken
        : async ({ signal }) => {
            const { items } = await api.get(`/asa/groups/${encodeURIComponent(campaignId)}`, z.object({ items: z.array(adGroupSchema) }), { query: { accountId: scope.accountId, orgId: scope.orgId }, signal });
            return items;
          },
    staleTime: 5 * 60_000,
  });
}
