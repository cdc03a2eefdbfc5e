/**
 * `GET mmpEventsSettings/allNames` (any role; docs/api/attribution.md, "Event settings"): every
 * event name each provider sent, per app, with what it counts as (trial, purchase, revenue).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { zEnvelopeItemsEventNameItem, type zCountsAs, type zEventNameItem } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';
import { attributionKeys } from './keys';

export type EventName = z.infer<typeof zEventNameItem>;
export type CountsAs = z.infer<typeof zCountsAs>;

export async function getEventNames({ signal }: CallOptions = {}): Promise<EventName[]> {
  const { items } = await api.get('/mmpEventsSettings/allNames', zEnvelopeItemsEventNameItem.shape.result, { signal });
  return items;
}

export const eventNamesQuery = () => queryOptions({ queryKey: attributionKeys.eventNames(), queryFn: ({ signal }) => getEventNames({ signal }) });

/** The names `provider` sent. */
export function useEventNames(provider: string) {
  return useQuery({ ...eventNamesQuery(), select: (names) => names.filter((n) => n.provider === provider) });
}
