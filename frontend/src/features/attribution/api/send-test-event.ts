/**
 * `POST attribution/integrations/{provider}/test-event` (owner, admin, writer): stores an
 * install marked `test`, tied to one of the workspace's synced campaigns, and answers it. It goes
 * first in the cached events at once (no report, status or event setting counts it).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { zEnvelopeItemsEventItem } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';
import type { AttributionEvent } from './get-events';
import { attributionKeys } from './keys';

const NEWEST = 50;

export async function sendTestEvent(provider: string, { signal }: CallOptions = {}): Promise<AttributionEvent[]> {
  const { items } = await api.post(`/attribution/integrations/${encodeURIComponent(provider)}/test-event`, undefined, zEnvelopeItemsEventItem.shape.result, { signal });
  return items;
}

/** `sent` first, then the others (a repeat of one sent dropped), the newest 50. */
export function withNewest(sent: AttributionEvent[], events: AttributionEvent[] | undefined): AttributionEvent[] {
  const ids = new Set(sent.map((e) => e.dedupeId));
  return [...sent, ...(events ?? []).filter((e) => !ids.has(e.dedupeId))].slice(0, NEWEST);
}

export function useSendTestEvent(provider: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => sendTestEvent(provider),
    onSuccess: (sent) => {
      client.setQueryData(attributionKeys.events(provider), (events: AttributionEvent[] | undefined) => withNewest(sent, events));
      void client.invalidateQueries({ queryKey: attributionKeys.events(provider) });
    },
  });
}
