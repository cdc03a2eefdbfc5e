/** GET /api/purchase/all: the workspace's purchases, newest first (owner and admin). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { zEnvelopeItemsPurchaseItem } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';
import { planKeys } from './keys';
import type { Purchase } from './plan';

const purchasesResultSchema = zEnvelopeItemsPurchaseItem.shape.result;

export async function getPurchases({ signal }: CallOptions = {}): Promise<Purchase[]> {
  const { items } = await api.get('/purchase/all', purchasesResultSchema, { signal });
  return items;
}

export const purchasesQuery = () =>
  queryOptions({
    queryKey: planKeys.purchases(),
    queryFn: ({ signal }) => getPurchases({ signal }),
  });

export function usePurchases() {
  return useQuery(purchasesQuery());
}
