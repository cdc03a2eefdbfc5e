/**
 * What the app screen picks from: the event names the providers sent (`GET
 * mmpEventsSettings/allNames`, docs/api/attribution.md "Event settings") and the countries Apple
 * Ads serves (`GET country/allWithCodes`).
 */
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { zEnvelopeItemsCountryCode, zEnvelopeItemsEventNameItem, type zCountryCode } from '@/api/generated/zod.gen';
import { api } from '@/lib/api-client';
import { benchmarksKeys } from './keys';

export type Country = z.infer<typeof zCountryCode>;

/** The distinct event names sent for app `adamId` or without an app, sorted. */
export function useAppEventNames(adamId: string) {
  return useQuery({
    queryKey: benchmarksKeys.eventNames(),
    queryFn: async ({ signal }) => (await api.get('/mmpEventsSettings/allNames', zEnvelopeItemsEventNameItem.shape.result, { signal })).items,
    select: (names) => [...new Set(names.filter((n) => n.adamId == null || n.adamId === adamId).map((n) => n.eventName))].sort(),
  });
}

export function useCountries() {
  return useQuery({
    queryKey: benchmarksKeys.countries(),
    queryFn: async ({ signal }) => (await api.get('/country/allWithCodes', zEnvelopeItemsCountryCode.shape.result, { signal })).items,
    staleTime: Infinity,
  });
}
