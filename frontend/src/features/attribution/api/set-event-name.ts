/**
 * `PATCH mmpEventsSettings/one` (owner, admin, writer) `{provider, adamId, eventName, countsAs}`:
 * what an event name counts as. The cached names change at once; a refusal puts them back as
 * they were, and either way they are read again.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { zEnvelopeItemEventNameItem, type zSetEventName } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';
import type { EventName } from './get-event-names';
import { attributionKeys } from './keys';

export type SetEventName = z.infer<typeof zSetEventName>;

export async function setEventName(body: SetEventName, { signal }: CallOptions = {}): Promise<EventName> {
  const { item } = await api.patch('/mmpEventsSettings/one', body, zEnvelopeItemEventNameItem.shape.result, { signal });
  return item;
}

const sameName = (a: Pick<EventName, 'provider' | 'adamId' | 'eventName'>, b: Pick<EventName, 'provider' | 'adamId' | 'eventName'>) =>
  a.provider === b.provider && (a.adamId ?? null) === (b.adamId ?? null) && a.eventName === b.eventName;

export function useSetEventName() {
  const client = useQueryClient();
  const key = attributionKeys.eventNames();
  return useMutation({
    mutationFn: (body: SetEventName) => setEventName(body),
    onMutate: async (body) => {
      await client.cancelQueries({ queryKey: key });
      const before = client.getQueryData<EventName[]>(key);
      client.setQueryData(key, (names: EventName[] | undefined) => names?.map((n) => (sameName(n, body) ? { ...n, countsAs: body.countsAs } : n)));
      return { before };
    },
    onError: (_error, _body, context) => {
      if (context?.before) client.setQueryData(key, context.before);
    },
    onSettled: () => client.invalidateQueries({ queryKey: key }),
  });
}
