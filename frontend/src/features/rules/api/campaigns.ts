/**
 * The pickers of the rule form: the campaign group's campaigns (`GET asa/campaigns/list`,
 * the picker list of docs/api/campaigns.md) and a campaign's ad groups (`GET asa/groups/{id}`,
 * where an added keyword goes).
 */
import { skipToken, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { zEnvelopeItemsAdGroupItem, zEnvelopeItemsCampaignListItem, type zCampaignListItem } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';
import type { GroupScope } from './rules';
import { ruleKeys } from './keys';

export type PickerCampaign = z.infer<typeof zCampaignListItem>;

export async function getCampaigns(scope: GroupScope, { signal }: CallOptions = {}): Promise<PickerCampaign[]> {
  const { items } = await api.get('/asa/campaigns/list', zEnvelopeItemsCampaignListItem.shape.result, { query: { accountId: scope.accountId, orgId: scope.orgId }, signal });
  return items;
}

export function useGroupCampaigns(scope: GroupScope | null) {
  return useQuery({
    queryKey: ruleKeys.campaigns(scope?.accountId ?? '', scope?.orgId ?? ''),
    queryFn: scope ? ({ signal }) => getCampaigns(scope, { signal }) : skipToken,
    staleTime: 5 * 60_000,
  });
}

export function useAdGroups(scope: GroupScope, campaignId: string) {
  return useQuery({
    queryKey: ruleKeys.adGroups(scope.accountId, scope.orgId, campaignId),
    queryFn:
      campaignId === ''
        ? skipToken
        : async ({ signal }) => {
            const { items } = await api.get(`/asa/groups/${encodeURIComponent(campaignId)}`, zEnvelopeItemsAdGroupItem.shape.result, { query: { accountId: scope.accountId, orgId: scope.orgId }, signal });
            return items;
          },
    staleTime: 5 * 60_000,
  });
}
