/**
 * `DELETE users/one/connect/appStore/{id}` (owner, admin, writer): the key is forgotten with
 * the sales read through it; the answer is the connections left.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { zEnvelopeItemsAppStoreConnectionItem } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';
import { appStoreKeys, type AppStoreConnection } from './get-app-store-connections';

export async function disconnectAppStore(id: string, { signal }: CallOptions = {}): Promise<AppStoreConnection[]> {
  const { items } = await api.delete(`/users/one/connect/appStore/${encodeURIComponent(id)}`, zEnvelopeItemsAppStoreConnectionItem.shape.result, { signal });
  return items;
}

export function useDisconnectAppStore() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => disconnectAppStore(id),
    onSuccess: (items) => {
      client.setQueryData(appStoreKeys.list(), items);
      client.removeQueries({ queryKey: [...appStoreKeys.all, 'proceeds'] });
    },
  });
}
