/**
 * What step 1 shows around the form: its defaults for the user (`GET /api/keyword/default`)
 * and the expected duration of a collection (`GET /api/timings/{type}/{countryCode}`).
 */
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query';
import type { Timing } from '@/api/generated/types.gen';
import { zEnvelopeTiming } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';
import type { SuggestionType } from '../wizard';
import { suggesterKeys } from './keys';
import { defaultsSchema, type SearchDefaults } from './types';

export async function getSearchDefaults({ signal }: CallOptions = {}): Promise<SearchDefaults> {
  const { item } = await api.get('/keyword/default', defaultsSchema, { signal });
  return item;
}

export function useSearchDefaults() {
  return useQuery({ queryKey: suggesterKeys.defaults(), queryFn: ({ signal }) => getSearchDefaults({ signal }), staleTime: Infinity });
}

const timingSchema = zEnvelopeTiming.shape.result;

/**
 * The expected duration of a collection of this type and country: the median of past ones
 * here, or a first estimate from its planned calls (`estimated`).
 */
export async function getTiming(type: SuggestionType, country: string, { signal }: CallOptions = {}): Promise<Timing> {
  return api.get(`/timings/${encodeURIComponent(type)}/${encodeURIComponent(country)}`, timingSchema, { signal });
}

export function useTiming(type: SuggestionType, country: string | null) {
  return useQuery(
    queryOptions({
      queryKey: suggesterKeys.timing(type, country ?? ''),
      queryFn: country ? ({ signal }) => getTiming(type, country, { signal }) : skipToken,
      staleTime: 5 * 60_000,
    }),
  );
}
