/**
 * Campaign creation's calls (docs/api/creation.md): whether campaign names are already used
 * in the campaign group (`POST /api/asa/campaigns/exists`, step 4), the app's custom product
 * pages (`GET /api/productPages/all/adam/{appId}`, step 5) and the creation itself
 * (`PUT /api/asa/campaigns/asa/all`, answering the task the browser then polls).
 */
import { keepPreviousData, queryOptions, skipToken, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { NamesRequest } from '@/api/generated/types.gen';
import { zEnvelopeItemsNameUse, zEnvelopeItemsPageItem, type zPageItem } from '@/api/generated/zod.gen';
import { api, apiRequest, type CallOptions } from '@/lib/api-client';
import type { CreateBody } from '../campaign-plan';
import { suggesterKeys } from './keys';
import { scopeQuery, startResultSchema, type Scope } from './types';

const existsSchema = zEnvelopeItemsNameUse.shape.result;

/** The names of `names` that a campaign of the campaign group already has. */
export async function campaignsExist(scope: Scope, names: string[], { signal }: CallOptions = {}): Promise<string[]> {
  const { items } = await apiRequest('/asa/campaigns/exists', { method: 'POST', query: scopeQuery(scope), body: { names } satisfies NamesRequest, schema: existsSchema, signal });
  return items.filter((i) => i.exists).map((i) => i.name);
}

/** The contract's most names per ask. */
const MAX_NAMES = 200;

export function useCampaignsExist(scope: Scope | null, names: string[]) {
  const asked = [...new Set(names.map((n) => n.trim()).filter((n) => n.length > 0))].sort().slice(0, MAX_NAMES);
  return useQuery(
    queryOptions({
      queryKey: suggesterKeys.exists(scope ?? { accountId: '', orgId: null }, asked),
      queryFn: scope && asked.length > 0 ? ({ signal }) => campaignsExist(scope, asked, { signal }) : skipToken,
      placeholderData: keepPreviousData,
      staleTime: 30_000,
    }),
  );
}

export type ProductPage = z.output<typeof zPageItem>;

export async function getProductPages(scope: Scope, adamId: string, { signal }: CallOptions = {}): Promise<ProductPage[]> {
  const { items } = await api.get(`/productPages/all/adam/${encodeURIComponent(adamId)}`, zEnvelopeItemsPageItem.shape.result, { query: scopeQuery(scope), signal });
  return items;
}

export function useProductPages(scope: Scope | null, adamId: string | null) {
  return useQuery(
    queryOptions({
      queryKey: suggesterKeys.productPages(scope ?? { accountId: '', orgId: null }, adamId ?? ''),
      queryFn: scope && adamId ? ({ signal }) => getProductPages(scope, adamId, { signal }) : skipToken,
      staleTime: 5 * 60_000,
    }),
  );
}

/**
 * Starts the creation; answers the task id (docs/product.md#8-campaign-creation-failure: no id is
 * an error).
 */
export async function createCampaigns(scope: Scope, body: CreateBody, { signal }: CallOptions = {}): Promise<string> {
  const result = await apiRequest('/asa/campaigns/asa/all', { method: 'PUT', query: scopeQuery(scope), body, schema: startResultSchema, signal });
  return result.id;
}
