/** A connection's sync as the task list shows it (the first sync, the 3-hourly one, Sync now). */
import { isRunning, type Task } from './api/task';

/** The kinds of the sync jobs a connection runs: entities, then metrics. */
export const SYNC_KINDS: readonly string[] = ['sync-account', 'sync-reports'];

/** The newest running sync of connection `accountId` (of all its campaign groups or of `orgId`). */
export function runningSync(tasks: Task[] | undefined, accountId: string, orgId: string | null): Task | null {
  return (
    tasks?.find(
      (task) => SYNC_KINDS.includes(task.kind) && isRunning(task) && task.accountId === accountId && (task.orgId == null || orgId === null || task.orgId === orgId),
    ) ?? null
  );
}
