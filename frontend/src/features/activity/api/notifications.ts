/**
 * `GET /api/accountsActions/all` (docs/api/activity.md): the workspace's notifications,
 * newest first, in pages of 50 (spec §4, §9), with the per-type counts of the left filter
 * list and the caller's unread count. The list is asked only when both dates are set
 * (spec §5); the search is trimmed and sent only when non-empty; `GMT` is the browser's
 * offset east of UTC in minutes, so the server's days are the browser's.
 */
import { infiniteQueryOptions, keepPreviousData, skipToken, useInfiniteQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api, type CallOptions, type Query } from '@/lib/api-client';
import { activityKeys } from './keys';

/** Notifications per page (spec §9). */
export const PAGE_SIZE = 50;

/** The notification tags (spec §3), in the order of the left filter list. */
export const TAGS = ['auto_rules', 'goal_optimization', 'quick_start', 'manual_change', 'team'] as const;
export type Tag = (typeof TAGS)[number];

const decimalText = z.union([z.string(), z.number()]).transform(String);

/** One change's entity, field and value (a notification of a single change). */
const changeDataSchema = z.object({
  entity: z.string().nullish(),
  field: z.string().nullish(),
  value: decimalText.nullish(),
  currency: z.string().nullish(),
});
export type ChangeData = z.infer<typeof changeDataSchema>;

/** The changes of a notification grouped by field and action, with shared values. */
const changeGroupSchema = z.object({
  source: z.string().nullish(),
  typeOfChange: z.string().nullish(),
  action: z.string().nullish(),
  count: z.number(),
  oldData: decimalText.nullish(),
  saveData: decimalText.nullish(),
  currency: z.string().nullish(),
});
export type ChangeGroup = z.infer<typeof changeGroupSchema>;

export const notificationSchema = z.object({
  _id: z.string(),
  title: z.string(),
  tag: z.string(),
  action: z.string().nullish(),
  target: z.string().nullish(),
  source: z.string(),
  sourceName: z.string().nullish(),
  email: z.string().nullish(),
  ruleId: z.string().nullish(),
  key: z.string().nullish(),
  type: z.string().nullish(),
  dateCreated: z.string(),
  read: z.boolean(),
  accountId: z.string().nullish(),
  orgId: z.string().nullish(),
  campaignId: z.string().nullish(),
  campaignName: z.string().nullish(),
  campaignNames: z.array(z.string()).nullish(),
  oldData: changeDataSchema.nullish(),
  saveData: changeDataSchema.nullish(),
  count: z.number(),
  notificationsData: z.array(changeGroupSchema).nullish(),
  undo: z
    .object({ possible: z.boolean(), undoneBy: z.string().nullish(), undoOf: z.string().nullish() })
    .nullish(),
});
export type Notification = z.infer<typeof notificationSchema>;

const countsSchema = z.object({
  all: z.number(),
  manual_change: z.number().default(0),
  quick_start: z.number().default(0),
  auto_rules: z.number().default(0),
  goal_optimization: z.number().default(0),
  team: z.number().default(0),
});
export type TagCounts = z.infer<typeof countsSchema>;

export const notificationPageSchema = z.object({
  items: z.array(notificationSchema),
  total: z.number(),
  unread: z.number().default(0),
  counts: countsSchema.nullish(),
});
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
