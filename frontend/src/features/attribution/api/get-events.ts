/**
 * `GET attribution/integrations/{provider}/events` (any role): the 50 newest events of a
 * connected provider, test events included and marked. Read again every 10 s while a screen
 * shows them (TanStack Query's refetchInterval; paused in a hidden tab).
 */
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { zEnvelopeItemsEventItem, type zEventItem } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';
import { attributionKeys } from './keys';

export type AttributionEvent = z.infer<typeof zEventItem>;

/** How often the events are read again while the integration's page is open. */
export const EVENTS_POLL_MS = 10_000;

const eventsSchema = zEnvelopeItemsEventItem.shape.result;

export async function getEvents(provider: string, { signal }: CallOptions = {}): Promise<AttributionEvent[]> {
  const { items } = await api.get(`/attribution/integrations/${encodeURIComponent(provider)}/events`, eventsSchema, { signal });
  return items;
}

/** The events of `provider`; not asked while it is not connected. */
export const eventsQuery = (provider: string, connected: boolean) =>
  queryOptions({
    queryKey: attributionKeys.events(provider),
    queryFn: connected ? ({ signal }) => getEvents(provider, { signal }) : skipToken,
    refetchInterval: EVENTS_POLL_MS,
  });

export function useEvents(provider: string, connected: boolean) {
  return useQuery(eventsQuery(provider, connected));
}
