/**
 * The account selector's sync line of a connection: 'Last synced …' (or 'Not synced yet')
 * and when the next sync starts, with 'Sync now' (owners, admins, editors) beside them; the
 * button waits while a sync of the connection runs (its progress is in the page header).
 */
import { useQueryClient } from '@tanstack/react-query';
import { runningSync, taskKeys, useTasks } from '@/features/tasks';
import type { Account } from '../api/account';
import { SyncNow } from './SyncNow';

export function LastSynced({ account }: { account: Account }) {
  const tasks = useTasks();
  const queryClient = useQueryClient();
  return (
    <div data-testid="last-synced">
      <SyncNow
        account={account}
        syncing={runningSync(tasks.data, account._id, null) !== null}
        onStarted={() => void queryClient.invalidateQueries({ queryKey: taskKeys.list() })}
      />
    </div>
  );
}
