/** Query keys of the activity log (the notification list, the unread count, a notification's changes). */
import type { NotificationFilters } from './notifications';

export const activityKeys = {
  all: ['activity'] as const,
  lists: () => [...activityKeys.all, 'list'] as const,
  list: (filters: NotificationFilters) => [...activityKeys.lists(), filters] as const,
  unread: () => [...activityKeys.all, 'unread'] as const,
  changesOf: (id: string) => [...activityKeys.all, 'changes', id] as const,
  changes: (id: string, page: number) => [...activityKeys.changesOf(id), page] as const,
};
