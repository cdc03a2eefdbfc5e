/**
 * The header's sync line: the running sync of the page's connection (the first sync, the
 * 3-hourly one or a 'Sync now'; `sync-account` lists the entities, then `sync-reports`
 * fetches the metrics; each task names its connection, and its campaign group when it works
 * in one) with its message and progress; else 'Last synced …' (and when the next sync starts,
 * when the connection is known), or 'Not synced yet'. Another account's sync does not show
 * here. While nothing was ever synced the task list is polled (a first sync may start any
 * moment); later it is read as the task list is (polled while a task runs). Once a sync ends
 * the report and the connections are read again.
 */
import { Group, Loader, Progress, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { accountKeys, type Account } from '@/features/accounts';
import { runningSync, taskProgress, tasksQuery } from '@/features/tasks';
import { t } from '@/i18n';
import { formatDateTime, formatPercent } from '@/lib/format';
import { optimizationKeys } from '../api/keys';

export { runningSync, SYNC_KINDS } from '@/features/tasks';

/** How often the task list is read while waiting for a first sync. */
const WAIT_POLL_MS = 3000;

interface SyncStateProps {
  accountId: string;
  orgId: string | null;
  /** When the page's data was last synced: null never, undefined not known yet. */
  lastSyncedAt?: string | null;
  /** The page's connection, for when its next sync starts. */
  account?: Account;
}

export function SyncState({ accountId, orgId, lastSyncedAt = null, account }: SyncStateProps) {
  const base = tasksQuery();
  const tasks = useQuery(lastSyncedAt === null ? { ...base, refetchInterval: WAIT_POLL_MS } : base);
  const sync = runningSync(tasks.data, accountId, orgId);
  const queryClient = useQueryClient();
  const wasRunning = useRef(false);
  useEffect(() => {
    if (sync) wasRunning.current = true;
    else if (wasRunning.current) {
      wasRunning.current = false;
      void queryClient.invalidateQueries({ queryKey: [...optimizationKeys.all, 'report'] });
      void queryClient.invalidateQueries({ queryKey: accountKeys.all });
    }
  }, [sync, queryClient]);

  if (!sync) {
    const next = account && lastSyncedAt ? ` · ${t('accounts.nextSync')} ${formatDateTime(account.nextSyncAt)}` : '';
    return (
      <Text size="xs" c="dimmed" data-testid="report-last-synced">
        {lastSyncedAt === undefined ? '\u00a0' : lastSyncedAt ? `${t('accounts.lastSynced')} ${formatDateTime(lastSyncedAt)}${next}` : t('accounts.notSynced')}
      </Text>
    );
  }
  const percent = taskProgress(sync);
  return (
    <Group gap={8} wrap="nowrap" data-testid="report-last-synced" data-syncing="">
      <Loader size={10} />
      <Text size="xs" c="blue">
        {t('sync.running')}: {sync.message} · {formatPercent(percent / 100, 0)}
      </Text>
      <Progress value={percent} size="xs" w={80} aria-label={t('sync.running')} />
    </Group>
  );
}
