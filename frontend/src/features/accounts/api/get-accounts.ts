/** GET /api/account/getAll: every connection of the workspace, oldest first. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type CallOptions } from '@/lib/api-client';
import { accountsResultSchema, type Account } from './account';
import { accountKeys } from './keys';

export async function getAccounts({ signal }: CallOptions = {}): Promise<Account[]> {
  const { items } = await api.get('/account/getAll', accountsResultSchema, { signal });
  return items;
}

/**
 * Loaded once a user is signed in (docs/product.md#4-sign-in-account-and-session); `enabled` false
 * asks nothing.
 */
export const accountsQuery = (enabled = true) =>
  queryOptions({
    queryKey: accountKeys.list(),
    queryFn: ({ signal }) => getAccounts({ signal }),
    enabled,
    staleTime: 60_000,
  });

export function useAccounts(enabled = true) {
  return useQuery(accountsQuery(enabled));
}
