/**
 * `GET /api/accountsActions/all` (docs/api/activity.md): the workspace's notifications,
 * newest first, in pages of 50 (docs/product.md#4-notifications,
 * docs/product.md#9-tables-and-notifications), with the per-type counts of the left filter list and
 * the caller's unread count. The list is asked only when both dates are set
 * (docs/product.md#5-activity-log-search); the search is trimmed and sent only when non-empty;
 * `GMT` is the browser's offset east of UTC in minutes, so the server's days are the browser's.
 */
import { infiniteQueryOptions, keepPreviousData, skipToken, useInfiniteQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { zEnvelopeNotificationPage, zNotificationOut, type zChangeGroup, type zChangeValue, type zTagCounts } from '@/api/generated/zod.gen';
import { api, type CallOptions, type Query } from '@/lib/api-client';
import { activityKeys } from './keys';

/** Notifications per page (docs/product.md#9-tables-and-notifications). */
export const PAGE_SIZE = 50;

/** The notification tags (docs/product.md#3-notification), in the order of the left filter list. */
export const TAGS = ['auto_rules', 'goal_optimization', 'quick_start', 'manual_change', 'team'] as const;
export type Tag = (typeof TAGS)[number];

/** One change's entity, field and value (a notification of a single change): `ChangeValue`. */
export type ChangeData = z.infer<typeof zChangeValue>;

/** The changes of a notification grouped by field and action, with shared values: `ChangeGroup`. */
export type ChangeGroup = z.infer<typeof zChangeGroup>;

/** A notification (docs/product.md#3-notification): the document's `NotificationOut`. */
export const notificationSchema = zNotificationOut;
export type Notification = z.infer<typeof notificationSchema>;

export type TagCounts = z.infer<typeof zTagCounts>;

/** A page of the log with the per-type counts and the caller's unread count (`NotificationPage`). */
export const notificationPageSchema = zEnvelopeNotificationPage.shape.result;
export type NotificationPage = z.infer<typeof notificationPageSchema>;

/** What the screen filters by: both days (`YYYY-MM-DD`) or the list is not asked. */
export interface NotificationFilters {
  tag: Tag | null;
  /** As typed; trimmed before it is sent. */
  search: string;
  fromDate: string | null;
  toDate: string | null;
  /** Minutes east of UTC (UTC+2 is 120). */
  gmt: number;
}

/** The browser's offset east of UTC in minutes at `at` (the API's `GMT`). */
export function browserGmt(at: Date = new Date()): number {
  return -at.getTimezoneOffset();
}

/** The query of one page: the tag omitted for all, the search only when non-empty. */
export function notificationsQuery(filters: NotificationFilters, skip: number): Query {
  const campaignName = filters.search.trim();
  return {
    GMT: filters.gmt,
    limit: PAGE_SIZE,
    skip,
    tag: filters.tag ?? undefined,
    campaignName: campaignName === '' ? undefined : campaignName,
    fromDate: filters.fromDate ?? undefined,
    toDate: filters.toDate ?? undefined,
  };
}

export async function getNotifications(query: Query, { signal }: CallOptions = {}): Promise<NotificationPage> {
  return api.get('/accountsActions/all', notificationPageSchema, { query, signal });
}

/** The filters as the list's key: the search trimmed, so spaces typed around it ask nothing new. */
const keyFilters = (filters: NotificationFilters): NotificationFilters => ({ ...filters, search: filters.search.trim() });

export const notificationsInfiniteQuery = (filters: NotificationFilters) =>
  infiniteQueryOptions({
    queryKey: activityKeys.list(keyFilters(filters)),
    queryFn:
      filters.fromDate && filters.toDate
        ? ({ pageParam, signal }) => getNotifications(notificationsQuery(filters, pageParam), { signal })
        : skipToken,
    initialPageParam: 0,
    // The previous filters' answer stands in while new ones load: the screen shows skeletons
    // in place of its items but keeps its counts, so the type list does not blink.
    placeholderData: keepPreviousData,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, page) => n + page.items.length, 0);
      return last.items.length > 0 && loaded < last.total ? loaded : undefined;
    },
  });

export function useNotifications(filters: NotificationFilters) {
  return useInfiniteQuery(notificationsInfiniteQuery(filters));
}
