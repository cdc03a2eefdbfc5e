/**
 * The names the breadcrumbs show: GET /api/asa/campaigns/{id} and GET /api/asa/groups/{a}/{b}
 * (synced campaigns and ad groups). Until a campaign is synced they answer 404 and the
 * breadcrumb shows the id.
 */
import { useQuery } from '@tanstack/react-query';
import { zEnvelopeItemAdGroupDetail, zEnvelopeItemCampaignItem } from '@/api/generated/zod.gen';
import { api } from '@/lib/api-client';
import type { EntityId } from '@/lib/ids';
import { optimizationKeys } from './keys';

const campaignSchema = zEnvelopeItemCampaignItem.shape.result;
const adGroupSchema = zEnvelopeItemAdGroupDetail.shape.result;

export function useCampaignName(accountId: string, orgId: EntityId, campaignId: EntityId | null) {
  return useQuery({
    queryKey: optimizationKeys.campaign(accountId, orgId, campaignId ?? ''),
    queryFn: async ({ signal }) => {
      const { item } = await api.get(`/asa/campaigns/${campaignId}`, campaignSchema, { query: { accountId, orgId }, signal });
      return item.campaignName;
    },
    enabled: campaignId !== null,
    retry: false,
    staleTime: 300_000,
  });
}

export function useAdGroupName(accountId: string, orgId: EntityId, campaignId: EntityId | null, adGroupId: EntityId | null) {
  return useQuery({
    queryKey: optimizationKeys.adGroup(accountId, orgId, campaignId ?? '', adGroupId ?? ''),
    queryFn: async ({ signal }) => {
      const { item } = await api.get(`/asa/groups/${campaignId}/${adGroupId}`, adGroupSchema, { query: { accountId, orgId }, signal });
      return item.adGroupName;
    },
    enabled: campaignId !== null && adGroupId !== null,
    retry: false,
    staleTime: 300_000,
  });
}
