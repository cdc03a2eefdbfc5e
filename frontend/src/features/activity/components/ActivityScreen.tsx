/**
 * `/activity-log` (docs/product.md#2-activity-log, docs/product.md#4-notifications): the search by
 * campaign name (debounced, trimmed, sent only when non-empty, its text marked in the results),
 * Mark all as read, the date range (default the last 30 days; nothing is asked while a date is
 * missing), the left filter list by type with counts, and the notifications grouped under Today,
 * Yesterday, Last 30 days and Older by the browser's day, 50 at a time as the page is
 * scrolled. Skeletons while loading, the spec's empty text, its toast when the list fails,
 * and the `?notificationId=` deep link.
 */
import { Button, Card, Group, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconChecks, IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useSession } from '@/features/auth';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { showSnackbar } from '@/lib/notifications';
import { useMarkRead } from '../api/mark-read';
import { browserGmt, useNotifications, type Notification, type Tag } from '../api/notifications';
import { defaultRange, groupByDay } from '../days';
import { useDeepLink } from '../hooks/useDeepLink';
import { useInfiniteScroll } from '../hooks/useInfiniteScroll';
import { useUndo } from '../hooks/useUndo';
import { ActivityDateRange, type DayRangeValue } from './ActivityDateRange';
import { ChangesDrawer } from './ChangesDrawer';
import { NotificationItem } from './NotificationItem';
import { TypeFilter } from './TypeFilter';
import { UndoResultModal } from './UndoResultModal';

/** How long typing rests before the search is sent. */
export const SEARCH_DEBOUNCE_MS = 300;

const EDITORS = new Set(['owner', 'admin', 'writer']);

function ItemSkeletons({ count }: { count: number }) {
  return (
    <Stack gap="sm" data-testid="activity-skeletons">
      {Array.from({ length: count }, (_, i) => (
        <Card withBorder padding="md" key={i}>
          <Stack gap={8}>
            <Skeleton h={16} w="40%" />
            <Skeleton h={12} w="60%" />
            <Skeleton h={12} w="30%" />
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}

/** The docs/product.md#8-notifications-fetch-failure toast, once per failure of the list. */
function useFailureToast(error: unknown) {
  useEffect(() => {
    if (error) showSnackbar(`${t('activity.fetchError')} ${errorMessage(error)}`, 'danger');
  }, [error]);
}

/**
 * What an empty list means: nothing matches the search (with a way to clear it), nothing in
 * the dates chosen, or — on the default last 30 days — the spec's empty text.
 */
function EmptyList({ search, range, fallback, onClear }: { search: string; range: DayRangeValue; fallback: DayRangeValue; onClear: () => void }) {
  const defaultDates = range.start === fallback.start && range.end === fallback.end;
  return (
    <Card withBorder padding="xl">
      <Stack gap="xs" align="center" data-testid="activity-empty">
        <Text c="dimmed" ta="center">
          {search ? t('activity.noMatch').replace('{search}', search) : defaultDates ? t('activity.empty') : t('activity.emptyRange')}
        </Text>
        {search && (
          <>
            <Text size="sm" c="dimmed" ta="center">
              {t('activity.noMatchHint')}
            </Text>
            <Button variant="subtle" size="xs" onClick={onClear}>
              {t('activity.clearSearch')}
            </Button>
          </>
        )}
      </Stack>
    </Card>
  );
}

export function ActivityScreen() {
  const { user } = useSession();
  const canUndo = user !== null && user !== undefined && EDITORS.has(user.permission);
  const gmt = browserGmt();
  const [fallback] = useState(() => defaultRange(new Date(), gmt));
  const [range, setRange] = useState<DayRangeValue>(fallback);
  const [tag, setTag] = useState<Tag | null>(null);
  const [search, setSearch] = useState('');
  const [sent] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const [details, setDetails] = useState<Notification | null>(null);
  const list = useNotifications({ tag, search: sent, fromDate: range.start, toDate: range.end, gmt });
  const markRead = useMarkRead();
  const undo = useUndo();
  useFailureToast(list.error);

  const datesSet = range.start !== null && range.end !== null;
  const pages = datesSet ? (list.data?.pages ?? []) : [];
  const first = pages[0];
  const loading = datesSet && (list.isPending || list.isPlaceholderData);
  const items = loading ? [] : pages.flatMap((page) => page.items);
  const loadMore = () => {
    if (list.hasNextPage && !list.isFetchingNextPage) void list.fetchNextPage();
  };
  useInfiniteScroll(loadMore, !loading && list.hasNextPage && !list.isFetchingNextPage);
  const highlighted = useDeepLink({
    items,
    settled: !loading && (list.isSuccess || list.isError),
    isFetching: list.isFetching,
    hasNextPage: list.hasNextPage,
    fetchNextPage: loadMore,
  });

  const read = (n: Notification) => {
    markRead.mutate([n._id], { onError: (error) => showSnackbar(errorMessage(error), 'danger') });
  };
  const readAll = () => {
    markRead.mutate(undefined, { onError: (error) => showSnackbar(errorMessage(error), 'danger') });
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <TextInput
          w={320}
          leftSection={<IconSearch size={16} />}
          placeholder={t('activity.search')}
          aria-label={t('activity.search')}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
        />
        <Group gap="sm">
          <ActivityDateRange value={range} fallback={fallback} onChange={setRange} />
          <Button variant="default" leftSection={<IconChecks size={16} />} onClick={readAll} disabled={markRead.isPending || (first !== undefined && first.unread === 0)}>
            {t('activity.markAllRead')}
          </Button>
        </Group>
      </Group>
      <Group align="flex-start" gap="lg" wrap="nowrap">
        <TypeFilter value={tag} counts={first?.counts} onChange={setTag} />
        <Stack gap="lg" flex={1} miw={0} aria-label={t('activity.listLabel')} component="section">
          {!datesSet ? (
            <Text c="dimmed">{t('activity.needDates')}</Text>
          ) : loading ? (
            <ItemSkeletons count={5} />
          ) : items.length === 0 ? (
            list.isError ? (
              <Text c="red" role="alert">
                {t('activity.fetchError')} {errorMessage(list.error)}
              </Text>
            ) : (
              <EmptyList search={sent.trim()} range={range} fallback={fallback} onClear={() => setSearch('')} />
            )
          ) : (
            groupByDay(items, new Date(), gmt).map((section) => (
              <Stack gap="sm" key={section.group} component="section" aria-label={t(`activity.group.${section.group}`)}>
                <Title order={4}>{t(`activity.group.${section.group}`)}</Title>
                {section.items.map((n) => (
                  <NotificationItem key={n._id} n={n} search={sent} highlighted={highlighted === n._id} canUndo={canUndo} undoing={undo.undoing} onUndoStarted={undo.start} onRead={read} onDetails={setDetails} />
                ))}
              </Stack>
            ))
          )}
          {list.isFetchingNextPage && <ItemSkeletons count={2} />}
        </Stack>
      </Group>
      <ChangesDrawer notification={details} onClose={() => setDetails(null)} />
      <UndoResultModal result={undo.result} onClose={undo.closeResult} />
    </Stack>
  );
}
