/** GET /api/purchase/all: the workspace's purchases, newest first (owner and admin). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api, type CallOptions } from '@/lib/api-client';
import { planKeys } from './keys';
import { purchaseSchema, type Purchase } from './plan';

const purchasesResultSchema = z.object({ items: z.array(purchaseSchema) });

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
