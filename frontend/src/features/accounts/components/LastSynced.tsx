/** 'Last synced …' of a connection (or 'Not synced yet'); nothing while the server does not tell. */
import { Text } from '@mantine/core';
import { t } from '@/i18n';
import { formatDateTime } from '@/lib/format';
import type { Account } from '../api/account';

export function LastSynced({ account }: { account: Account }) {
  if (account.lastSyncedAt === undefined) return null;
  return (
    <Text size="xs" c="dimmed" data-testid="last-synced">
      {account.lastSyncedAt === null
        ? t('accounts.notSynced')
        : `${t('accounts.lastSynced')} ${formatDateTime(account.lastSyncedAt)}`}
    </Text>
  );
}

