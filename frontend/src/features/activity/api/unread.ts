/**
 * The sidebar's unread count: `GET /api/accountsActions/all?limit=1&new=true` with no dates
 * (docs/api/activity.md: `unread` is the caller's unread count without the dates), asked
 * again every minute and after anything is marked read.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type CallOptions } from '@/lib/api-client';
import { activityKeys } from './keys';
import { notificationPageSchema } from './notifications';

export const UNREAD_REFETCH_MS = 60_000;

export async function getUnreadCount({ signal }: CallOptions = {}): Promise<number> {
  const page = await api.get('/accountsActions/all', notificationPageSchema, { query: { limit: 1, new: true }, signal });
  return page.unread;
}

export const unreadQuery = () =>
  queryOptions({
    queryKey: activityKeys.unread(),
    queryFn: ({ signal }) => getUnreadCount({ signal }),
    refetchInterval: UNREAD_REFETCH_MS,
  });

export function useUnreadCount() {
  return useQuery(unreadQuery());
}
