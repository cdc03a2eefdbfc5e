/**
 * The `?notificationId=` deep link (docs/product.md#2-activity-log,
 * docs/product.md#9-tables-and-notifications): once that notification is in the loaded pages,
 * it is scrolled into view and highlighted for 600 ms, then the query parameters are removed (which
 * ends the highlight). While it is not loaded yet, the next pages are asked for; when the list has
 * no more, the query parameters are removed all the same.
 */
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import type { Notification } from '../api/notifications';

export const HIGHLIGHT_MS = 600;
export const DEEP_LINK_PARAM = 'notificationId';

export const notificationElementId = (id: string) => `notification-${id}`;

interface ListState {
  items: readonly Notification[];
  /** The first page has come (or failed). */
  settled: boolean;
  isFetching: boolean;
  hasNextPage: boolean;
  fetchNextPage: () => void;
}

/** The id of the notification to highlight now, or null. */
export function useDeepLink({ items, settled, isFetching, hasNextPage, fetchNextPage }: ListState): string | null {
  const [params, setParams] = useSearchParams();
  const target = params.get(DEEP_LINK_PARAM);
  const found = target !== null && items.some((item) => item._id === target);

  useEffect(() => {
    if (!target || !found) return;
    document.getElementById(notificationElementId(target))?.scrollIntoView({ block: 'center', behavior: 'smooth' });
    const timer = setTimeout(() => setParams({}, { replace: true }), HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [target, found, setParams]);

  useEffect(() => {
    if (!target || found || !settled || isFetching) return;
    if (hasNextPage) fetchNextPage();
    else setParams({}, { replace: true });
  }, [target, found, settled, isFetching, hasNextPage, fetchNextPage, setParams]);

  return found ? target : null;
}
