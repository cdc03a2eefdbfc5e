/**
 * Marking notifications read (docs/product.md#4-notifications,
 * docs/product.md#7-the-calls-it-makes): `PATCH accountsActions/notifications/read {ids}` for the
 * ones clicked, `PATCH accountsActions/notifications/read/all` for Mark all as read. The clicked
 * ones read at once in the loaded pages; the lists and the unread count are asked again afterwards.
 */
import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { zEnvelopeMarked } from '@/api/generated/zod.gen';
import { api } from '@/lib/api-client';
import { activityKeys } from './keys';
import type { NotificationPage } from './notifications';

const updatedSchema = zEnvelopeMarked.shape.result;

/** Marks `ids` read, or every notification of the workspace when `ids` is absent. */
export async function markRead(ids?: readonly string[]): Promise<number> {
  const { updated } = ids
    ? await api.patch('/accountsActions/notifications/read', { ids }, updatedSchema)
    : await api.patch('/accountsActions/notifications/read/all', {}, updatedSchema);
  return updated;
}

/** The loaded pages with `ids` (or all, when absent) read. */
export function withRead(data: InfiniteData<NotificationPage, number>, ids?: readonly string[]): InfiniteData<NotificationPage, number> {
  const chosen = ids ? new Set(ids) : null;
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      items: page.items.map((item) => (!item.read && (!chosen || chosen.has(item._id)) ? { ...item, read: true } : item)),
    })),
  };
}

export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ids?: readonly string[]) => markRead(ids),
    onMutate: (ids) => {
      client.setQueriesData<InfiniteData<NotificationPage, number>>({ queryKey: activityKeys.lists() }, (data) => (data ? withRead(data, ids) : data));
    },
    onSettled: () => {
      void client.invalidateQueries({ queryKey: activityKeys.lists() });
      void client.invalidateQueries({ queryKey: activityKeys.unread() });
    },
  });
}
