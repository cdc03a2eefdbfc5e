/**
 * `GET users/one/connect/appStore` (any role; docs/api/app-store-connect.md): the workspace's
 * App Store Connect keys with the apps each sees, whether daily sales have been read, the
 * last day read and the last error. The key itself is never answered.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { zEnvelopeItemsAppStoreConnectionItem, type zAppStoreConnectionItem } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';

export type AppStoreConnection = z.infer<typeof zAppStoreConnectionItem>;

/** Query keys of the App Store Connect card (its list and each connection's proceeds). */
export const appStoreKeys = {
  all: ['app-store-connect'] as const,
  list: () => [...appStoreKeys.all, 'list'] as const,
  proceeds: (id: string, from: string, through: string) => [...appStoreKeys.all, 'proceeds', id, from, through] as const,
};

const listSchema = zEnvelopeItemsAppStoreConnectionItem.shape.result;

export async function getAppStoreConnections({ signal }: CallOptions = {}): Promise<AppStoreConnection[]> {
  const { items } = await api.get('/users/one/connect/appStore', listSchema, { signal });
  return items;
}

/** @param pollMs read again this often while a backfill is loading. */
export function useAppStoreConnections(pollMs: number | false = false) {
  return useQuery(queryOptions({ queryKey: appStoreKeys.list(), queryFn: ({ signal }) => getAppStoreConnections({ signal }), refetchInterval: pollMs }));
}
