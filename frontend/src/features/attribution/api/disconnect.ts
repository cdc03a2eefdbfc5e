/**
 * `DELETE attribution/integrations/{provider}` (owner, admin, writer): the postback URL stops
 * working; the events received stay, so the reports keep what was earned.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { zEnvelopeItemIntegrationItem } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';
import type { Integration } from './get-integrations';
import { afterIntegrationWrite } from './integration-write';
import { attributionKeys } from './keys';

export async function disconnect(provider: string, { signal }: CallOptions = {}): Promise<Integration> {
  const { item } = await api.delete(`/attribution/integrations/${encodeURIComponent(provider)}`, zEnvelopeItemIntegrationItem.shape.result, { signal });
  return item;
}

export function useDisconnect() {
  const client = useQueryClient();
  const onAnswer = afterIntegrationWrite(client);
  return useMutation({
    mutationFn: (provider: string) => disconnect(provider),
    onSuccess: (item) => {
      onAnswer(item);
      client.removeQueries({ queryKey: attributionKeys.events(item.provider) });
    },
  });
}
