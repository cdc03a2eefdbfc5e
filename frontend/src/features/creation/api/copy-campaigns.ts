/**
 * Campaign copies (docs/api/creation.md "Copies", docs/product.md#3-duplicate-campaign-settings):
 * `PUT /api/asa/campaigns/copy` with the campaigns, the number of copies, what to copy and
 * the optional bid and CPA goal overrides; answers the `copy-campaigns` task the modal polls.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { zEnvelopeTaskStarted } from '@/api/generated/zod.gen';
import { taskKeys } from '@/features/tasks';
import { apiRequest } from '@/lib/api-client';
import type { EntityId } from '@/lib/ids';

export interface Money {
  amount: string;
  currency: string;
}

/** The duplicate-campaign settings (docs/product.md#3-duplicate-campaign-settings). */
export interface CopySettings {
  campaigns: EntityId[];
  numberOfCopies: number;
  adGroup: boolean;
  campaignNegativeKeywords: boolean;
  customAds: boolean;
  cptBid: Money | null;
  cpaGoal: Money | null;
  status: 'PAUSED' | 'ENABLED';
}

/** docs/product.md#9-tables-and-notifications: one copy by default; the contract's bounds. */
export const DEFAULT_COPIES = 1;
export const MAX_COPIES = 10;
export const MAX_COPIED_CAMPAIGNS = 50;

const startedSchema = zEnvelopeTaskStarted.shape.result;

export async function copyCampaigns({ accountId, orgId, settings }: { accountId: string; orgId: EntityId; settings: CopySettings }): Promise<string> {
  const { id } = await apiRequest('/asa/campaigns/copy', { method: 'PUT', query: { accountId, orgId }, body: settings, schema: startedSchema });
  return id;
}

export function useCopyCampaigns() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: copyCampaigns,
    // The new task shows in the background-tasks popover.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: taskKeys.all }),
  });
}
