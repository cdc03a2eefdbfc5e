/**
 * Alerts (docs/api/rules.md Alerts): `GET alerts?campaignIds=…` (those of some campaigns),
 * `DELETE alerts` {alertIds} (dismissed for the workspace); and the workspace's Slack
 * incoming webhook, `GET`/`PUT alerts/slack` (masked when read; managers write it).
 */
import { skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { zEnvelopeAlertsDismissed, zEnvelopeItemSlackItem, zEnvelopeItemsAlertItem, type zAlertItem, type zSlackItem } from '@/api/generated/zod.gen';
import { api, apiRequest, type CallOptions } from '@/lib/api-client';
import { ruleKeys } from './keys';

export type Alert = z.infer<typeof zAlertItem>;

export async function getAlerts(campaignIds: readonly string[], { signal }: CallOptions = {}): Promise<Alert[]> {
  const { items } = await api.get('/alerts', zEnvelopeItemsAlertItem.shape.result, { query: { campaignIds: campaignIds.join(',') }, signal });
  return items;
}

/** The alerts of these campaigns (none asked without campaigns). */
export function useCampaignAlerts(campaignIds: readonly string[]) {
  const ids = [...campaignIds].sort();
  return useQuery({
    queryKey: ruleKeys.alerts(ids),
    queryFn: ids.length > 0 ? ({ signal }) => getAlerts(ids, { signal }) : skipToken,
    staleTime: 60_000,
  });
}

export async function dismissAlerts(alertIds: string[]): Promise<number> {
  const { deleted } = await apiRequest('/alerts', { method: 'DELETE', body: { alertIds }, schema: zEnvelopeAlertsDismissed.shape.result });
  return deleted;
}

export function useDismissAlerts() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (alertIds: string[]) => dismissAlerts(alertIds),
    onSuccess: () => client.invalidateQueries({ queryKey: ruleKeys.alertsAll }),
  });
}

export type SlackSetting = z.infer<typeof zSlackItem>;

export async function getSlack({ signal }: CallOptions = {}): Promise<SlackSetting> {
  const { item } = await api.get('/alerts/slack', zEnvelopeItemSlackItem.shape.result, { signal });
  return item;
}

export function useSlack(enabled: boolean) {
  return useQuery({ queryKey: ruleKeys.slack(), queryFn: enabled ? ({ signal }) => getSlack({ signal }) : skipToken });
}

export function useSaveSlack() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (url: string | null) => api.put('/alerts/slack', { url }, zEnvelopeItemSlackItem.shape.result),
    onSuccess: () => client.invalidateQueries({ queryKey: ruleKeys.slack() }),
  });
}
