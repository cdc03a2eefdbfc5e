/** GET /api/asa/getAccountData?accountId=: refreshes an account's campaign groups from Apple Ads. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type CallOptions } from '@/lib/api-client';
import { accountResultSchema, type Account } from './account';
import { accountKeys } from './keys';

export async function refreshOrgs(accountId: Account['_id'], { signal }: CallOptions = {}): Promise<Account> {
  const { item } = await api.get('/asa/getAccountData', accountResultSchema, { query: { accountId }, signal });
  return item;
}

export function useRefreshOrgs() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (accountId: Account['_id']) => refreshOrgs(accountId),
    onSuccess: (fresh) =>
      queryClient.setQueryData(accountKeys.list(), (list: Account[] | undefined) =>
        list?.map((a) => (a._id === fresh._id ? fresh : a)),
      ),
  });
}
