/**
 * 'Sync now' for one connection (issue 42 item 21): starts (or joins) the connection's sync
 * so a change made in Apple's own UI shows without waiting for the 3-hourly sync. Owners,
 * admins and editors get the button; viewers see only the times. While a sync of the
 * connection runs the button says so (its progress is in the page header); a refusal (synced
 * moments ago, 429) is said in the server's words.
 */
import { Button, Group, Text, Tooltip } from '@mantine/core';
import { IconRefreshDot } from '@tabler/icons-react';
import { useSession } from '@/features/auth';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { formatDateTime } from '@/lib/format';
import { showSnackbar } from '@/lib/notifications';
import type { Account } from '../api/account';
import { useSyncNow, type SyncStarted } from '../api/sync-now';

/** 'Last synced … · Next sync …' of a connection ('Not synced yet' before its first sync). */
export function syncTimes(account: Account): string {
  const last = account.lastSyncedAt ? `${t('accounts.lastSynced')} ${formatDateTime(account.lastSyncedAt)}` : t('accounts.notSynced');
  return `${last} · ${t('accounts.nextSync')} ${formatDateTime(account.nextSyncAt)}`;
}

interface SyncNowProps {
  account: Account;
  /** A sync of this connection is running (from the task list). */
  syncing: boolean;
  /** Called with the sync's task once it started or was joined (to poll the task list). */
  onStarted?: (started: SyncStarted) => void;
  /** Show the last and next sync times beside the button. */
  withTimes?: boolean;
}

export function SyncNow({ account, syncing, onStarted, withTimes = true }: SyncNowProps) {
  const { user } = useSession();
  const sync = useSyncNow();
  const canSync = user !== null && user.permission !== 'reader';
  const start = () =>
    sync.mutate(account._id, {
      onSuccess: (started) => {
        showSnackbar(started.joined ? t('accounts.syncJoined') : t('accounts.syncStarted'));
        onStarted?.(started);
      },
      onError: (error) => showSnackbar(errorMessage(error), 'danger'),
    });
  return (
    <Group gap="xs" wrap="nowrap" data-testid="sync-now">
      {withTimes && (
        <Text size="xs" c="dimmed" data-testid="sync-times">
          {syncTimes(account)}
        </Text>
      )}
      {canSync && (
        <Tooltip label={t('accounts.syncNowHint')} withArrow multiline w={260}>
          <Button
            variant="light"
            size="compact-xs"
            leftSection={<IconRefreshDot size={14} />}
            onClick={start}
            loading={sync.isPending}
            disabled={syncing}
            style={{ flex: 'none' }}
          >
            {syncing ? t('accounts.syncing') : t('accounts.syncNow')}
          </Button>
        </Tooltip>
      )}
    </Group>
  );
}
