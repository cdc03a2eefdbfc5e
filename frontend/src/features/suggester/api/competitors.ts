/**
 * The app's competitors (one store per workspace and app, shared with Settings): the saved
 * ones (`GET /api/competitors/get/{adamId}`), adding one found by search
 * (`POST /api/suggester/competitors`) and removing one
 * (`DELETE /api/suggester/competitors/{a}/{b}`), and the competitors the App Store suggests
 * (`POST /api/competitors/find`).
 */
import { skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FindCompetitors, SaveCompetitor } from '@/api/generated/types.gen';
import { z } from 'zod';
import { zEnvelopeItemPickerApp, zEnvelopeItemsPickerApp } from '@/api/generated/zod.gen';
import { api, emptyResultSchema, type CallOptions } from '@/lib/api-client';
import { suggesterKeys } from './keys';
import { asCountry, storeAppSchema, type StoreApp } from './types';

/** A list of App Store apps (`Items<PickerApp>`), read as the screen keeps them. */
const appsSchema = zEnvelopeItemsPickerApp.shape.result.extend({ items: z.array(storeAppSchema) });
const appSchema = zEnvelopeItemPickerApp.shape.result.extend({ item: storeAppSchema });

/** At most this many competitors per app (docs/api/suggester.md). */
export const MAX_COMPETITORS = 10;

export async function getCompetitors(adamId: string, { signal }: CallOptions = {}): Promise<StoreApp[]> {
  const { items } = await api.get(`/competitors/get/${encodeURIComponent(adamId)}`, appsSchema, { signal });
  return items;
}

export function useCompetitors(adamId: string | null) {
  return useQuery({
    queryKey: suggesterKeys.competitors(adamId ?? ''),
    queryFn: adamId ? ({ signal }) => getCompetitors(adamId, { signal }) : skipToken,
  });
}

export async function addCompetitor(adamId: string, competitorId: string, country: string): Promise<StoreApp> {
  const body: SaveCompetitor = { adamId, competitorId, country: asCountry(country) };
  const { item } = await api.post('/suggester/competitors', body, appSchema);
  return item;
}

export async function removeCompetitor(adamId: string, competitorId: string): Promise<void> {
  await api.delete(`/suggester/competitors/${encodeURIComponent(adamId)}/${encodeURIComponent(competitorId)}`, emptyResultSchema);
}

/** Adds a competitor to the app's saved ones; the list is updated with the saved record. */
export function useAddCompetitor(adamId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ competitorId, country }: { competitorId: string; country: string }) => addCompetitor(adamId ?? '', competitorId, country),
    onSuccess: (saved) => {
      queryClient.setQueryData<StoreApp[]>(suggesterKeys.competitors(adamId ?? ''), (list = []) =>
        list.some((c) => c.adamId === saved.adamId) ? list : [...list, saved],
      );
    },
  });
}

export function useRemoveCompetitor(adamId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (competitorId: string) => removeCompetitor(adamId ?? '', competitorId),
    onSuccess: (_, competitorId) => {
      queryClient.setQueryData<StoreApp[]>(suggesterKeys.competitors(adamId ?? ''), (list = []) => list.filter((c) => c.adamId !== competitorId));
    },
  });
}

/** Apps the App Store search returns for the app's genre and top terms, saved ones left out. */
export async function findSuggestedCompetitors(adamId: string, country: string, { signal }: CallOptions = {}): Promise<StoreApp[]> {
  const body: FindCompetitors = { adamId, country: asCountry(country) };
  const { items } = await api.post('/competitors/find', body, appsSchema, { signal });
  return items;
}

export function useSuggestedCompetitors(adamId: string | null, country: string | null) {
  return useQuery({
    queryKey: [...suggesterKeys.competitors(adamId ?? ''), 'suggested', country ?? ''],
    queryFn: adamId && country ? ({ signal }) => findSuggestedCompetitors(adamId, country, { signal }) : skipToken,
    staleTime: 5 * 60_000,
  });
}
