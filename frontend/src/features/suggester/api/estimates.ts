/**
 * Estimated daily impressions of the collected keywords (docs/api/suggester.md
 * "Estimates", `POST /api/reports/asa/getEstimatedImpressions?accountId=&orgId=`). The
 * collection answers `impressions: 0`; step 2 asks for the estimates of its result once,
 * in chunks of at most 1,000 keywords (the route's limit), for the country collected for
 * and the EXACT match type. The answer echoes each keyword normalised as
 * docs/product.md#5-keyword-lists, so the estimates are keyed by `normalizeKeyword`. Estimates are
 * optional: a failure leaves the collection's zeros.
 */
import { skipToken, useQuery } from '@tanstack/react-query';
import type { EstimateBody } from '@/api/generated/types.gen';
import { zEnvelopeItemsEstimate } from '@/api/generated/zod.gen';
import { apiRequest, type CallOptions } from '@/lib/api-client';
import { normalizeKeyword } from '@/lib/keywords';
import { suggesterKeys } from './keys';
import { asCountry, scopeQuery, type Scope } from './types';

/** At most this many keywords per request (docs/api/suggester.md). */
export const ESTIMATE_CHUNK = 1000;

const estimatesSchema = zEnvelopeItemsEstimate.shape.result;

/** Estimates by normalised keyword. */
export type Estimates = ReadonlyMap<string, number>;

/** `list` in consecutive slices of at most `size`. */
export function chunked<T>(list: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < list.length; i += size) chunks.push(list.slice(i, i + size));
  return chunks;
}

/** The estimated daily impressions of `keywords` in `country` (EXACT), one request per 1,000 in turn. */
export async function getEstimatedImpressions(scope: Scope, keywords: readonly string[], country: string, { signal }: CallOptions = {}): Promise<Estimates> {
  const estimates = new Map<string, number>();
  for (const chunk of chunked(keywords, ESTIMATE_CHUNK)) {
    const { items } = await apiRequest('/reports/asa/getEstimatedImpressions', {
      method: 'POST',
      query: scopeQuery(scope),
      body: { keywords: chunk, countries: [asCountry(country)], type: 'EXACT' } satisfies EstimateBody,
      schema: estimatesSchema,
      signal,
    });
    for (const item of items) estimates.set(normalizeKeyword(item.keyword), Math.max(0, item.impressions));
  }
  return estimates;
}

/** A keyword's estimate (0 when the answer has none). */
export const estimateOf = (estimates: Estimates, name: string): number => estimates.get(normalizeKeyword(name)) ?? 0;

/**
 * The estimates of a collection's result (`resultId`), asked once: the result does not
 * change, so they never go stale, and a failure is not retried (the column keeps 0).
 */
export function useEstimatedImpressions(scope: Scope | null, country: string | null, resultId: string | null, keywords: readonly string[] | null) {
  const enabled = scope !== null && country !== null && resultId !== null && keywords !== null && keywords.length > 0;
  return useQuery({
    queryKey: suggesterKeys.estimates(scope ?? { accountId: '', orgId: null }, country ?? '', resultId ?? ''),
    queryFn: enabled ? ({ signal }) => getEstimatedImpressions(scope, keywords, country, { signal }) : skipToken,
    staleTime: Infinity,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}
