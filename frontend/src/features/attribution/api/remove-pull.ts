/**
 * `DELETE attribution/integrations/{provider}/pull` (owner, admin, writer): the reporting API is
 * read no more; what it gave stays in the reports.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { zEnvelopeItemIntegrationItem } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';
import type { Integration } from './get-integrations';
import { afterIntegrationWrite } from './integration-write';

export async function removePull(provider: string, { signal }: CallOptions = {}): Promise<Integration> {
  const { item } = await api.delete(`/attribution/integrations/${encodeURIComponent(provider)}/pull`, zEnvelopeItemIntegrationItem.shape.result, { signal });
  return item;
}

export function useRemovePull() {
  const client = useQueryClient();
  return useMutation({ mutationFn: (provider: string) => removePull(provider), onSuccess: afterIntegrationWrite(client) });
}
