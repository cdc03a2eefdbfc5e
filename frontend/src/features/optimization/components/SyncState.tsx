/**
 * The header's sync line while a campaign group has never been synced (`lastSyncedAt` is set
 * only when the metrics sync ends): the running sync of the page's connection (`sync-account`
 * lists the entities, then `sync-reports` fetches the metrics; each task names its
 * connection, and its campaign group when it works in one) with its message and progress,
 * else "Not synced yet". Another account's sync does not show here. The task list is polled meanwhile, and the report is read again
 * once the syncs end.
 */
import { Group, Loader, Progress, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { isRunning, taskProgress, tasksQuery, type Task } from '@/features/tasks';
import { t } from '@/i18n';
import { formatPercent } from '@/lib/format';
import { optimizationKeys } from '../api/keys';

/** The kinds of the sync jobs a connection runs. */
export const SYNC_KINDS: readonly string[] = ['sync-account', 'sync-reports'];

/** How often the task list is read while waiting for a first sync. */
const WAIT_POLL_MS = 3000;

/** The newest running sync of connection `accountId` (of all its campaign groups or of `orgId`). */
export function runningSync(tasks: Task[] | undefined, accountId: string, orgId: string | null): Task | null {
  return (
    tasks?.find(
      (task) => SYNC_KINDS.includes(task.kind) && isRunning(task) && task.accountId === accountId && (task.orgId == null || orgId === null || task.orgId === orgId),
    ) ?? null
  );
}

export function SyncState({ accountId, orgId }: { accountId: string; orgId: string | null }) {
  const tasks = useQuery({ ...tasksQuery(), refetchInterval: WAIT_POLL_MS });
  const sync = runningSync(tasks.data, accountId, orgId);
  const queryClient = useQueryClient();
  const wasRunning = useRef(false);
  useEffect(() => {
    if (sync) wasRunning.current = true;
    else if (wasRunning.current) {
      wasRunning.current = false;
      void queryClient.invalidateQueries({ queryKey: [...optimizationKeys.all, 'report'] });
    }
  }, [sync, queryClient]);

  if (!sync) {
    return (
      <Text size="xs" c="dimmed" data-testid="report-last-synced">
        {t('accounts.notSynced')}
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
