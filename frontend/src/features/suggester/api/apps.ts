/**
 * The apps step 1 picks from: the campaign group's apps (`GET /api/asa/apps`) and any App
 * Store app found by search (`POST /api/suggester/competitors/findApp`), and the countries
 * Apple Ads serves (`GET /api/country/allWithCodes`).
 */
import { keepPreviousData, queryOptions, skipToken, useQuery } from '@tanstack/react-query';
import type { AppStoreSearch } from '@/api/generated/types.gen';
import { z } from 'zod';
import { type zCountryCode, zEnvelopeItemsAppItem, zEnvelopeItemsCountryCode, zEnvelopeItemsPickerApp } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';
import { suggesterKeys } from './keys';
import { asCountry, groupAppSchema, scopeQuery, storeAppSchema, type AppRef, type Scope, type StoreApp } from './types';

export async function getGroupApps(scope: Scope, { signal }: CallOptions = {}): Promise<AppRef[]> {
  const { items } = await api.get('/asa/apps', zEnvelopeItemsAppItem.shape.result.extend({ items: z.array(groupAppSchema) }), { query: scopeQuery(scope), signal });
  // One entry per app (an app may be promoted by several campaign groups).
  return [...new Map(items.map((a) => [a.adamId, a])).values()];
}

export function useGroupApps(scope: Scope | null) {
  return useQuery(
    queryOptions({
      queryKey: suggesterKeys.apps(scope ?? { accountId: '', orgId: null }),
      queryFn: scope ? ({ signal }) => getGroupApps(scope, { signal }) : skipToken,
      staleTime: 5 * 60_000,
    }),
  );
}

const appsSchema = zEnvelopeItemsPickerApp.shape.result.extend({ items: z.array(storeAppSchema) });

/** App Store apps matching `query` in `country` (at most 25). */
export async function findStoreApps(query: string, country: string, { signal }: CallOptions = {}): Promise<StoreApp[]> {
  const body: AppStoreSearch = { query, country: asCountry(country) };
  const { items } = await api.post('/suggester/competitors/findApp', body, appsSchema, { signal });
  return items;
}

/** Shortest search text sent to the App Store. */
export const MIN_SEARCH = 2;

export function useFindStoreApps(query: string, country: string | null) {
  const text = query.trim();
  const enabled = text.length >= MIN_SEARCH;
  return useQuery({
    queryKey: suggesterKeys.findApp(text, country ?? 'US'),
    queryFn: enabled ? ({ signal }) => findStoreApps(text, country ?? 'US', { signal }) : skipToken,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

/** A country of `country/allWithCodes` (the document's `CountryCode`). */
export type Country = z.infer<typeof zCountryCode>;

export async function getCountries({ signal }: CallOptions = {}): Promise<Country[]> {
  const { items } = await api.get('/country/allWithCodes', zEnvelopeItemsCountryCode.shape.result, { signal });
  return items;
}

export function useCountries() {
  return useQuery({ queryKey: suggesterKeys.countries(), queryFn: ({ signal }) => getCountries({ signal }), staleTime: Infinity });
}
