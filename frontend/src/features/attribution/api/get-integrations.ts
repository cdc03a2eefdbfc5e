/**
 * `GET attribution/integrations` (any role; docs/api/attribution.md, "Connecting a provider"):
 * every provider, connected or not, with its status, last event, events in the last 24 h and
 * its setup (the URL masked once connected).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { zEnvelopeItemsIntegrationItem, type zIntegrationItem } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';
import { attributionKeys } from './keys';

export type Integration = z.infer<typeof zIntegrationItem>;

const listSchema = zEnvelopeItemsIntegrationItem.shape.result;

export async function getIntegrations({ signal }: CallOptions = {}): Promise<Integration[]> {
  const { items } = await api.get('/attribution/integrations', listSchema, { signal });
  return items;
}

/** @param pollMs read again this often (a provider's page keeps its status and counts current). */
export const integrationsQuery = (pollMs: number | false = false) =>
  queryOptions({ queryKey: attributionKeys.integrations(), queryFn: ({ signal }) => getIntegrations({ signal }), refetchInterval: pollMs });

export function useIntegrations(pollMs: number | false = false) {
  return useQuery(integrationsQuery(pollMs));
}
