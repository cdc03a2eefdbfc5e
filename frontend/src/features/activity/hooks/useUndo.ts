/**
 * Follows an undo started from the log (one at a time) through the tasks feature's poll, on
 * the screen rather than the item, so a list read again meanwhile loses nothing. When it
 * ends, the log and the unread count are read again and the outcome is told: a message, and
 * the entities left as they were, if any.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTaskOutcome, type Task } from '@/features/tasks';
import { t } from '@/i18n';
import { showSnackbar } from '@/lib/notifications';
import { activityKeys } from '../api/keys';
import { undoResultOf, type UndoResult } from '../undo-result';

export function useUndo() {
  const client = useQueryClient();
  const [undoing, setUndoing] = useState<string | null>(null);
  const [result, setResult] = useState<UndoResult | null>(null);
  const outcome = useTaskOutcome((task) => {
    setUndoing(null);
    void client.invalidateQueries({ queryKey: activityKeys.all });
    if (task.error) {
      showSnackbar(task.error, 'danger');
      return;
    }
    const done = undoResultOf(task);
    showSnackbar(done.message ? `${t('activity.undo.done')} ${done.message}` : t('activity.undo.done'));
    if (done.left.length > 0) setResult(done);
  });
  const start = (taskId: Task['id'], notificationId: string) => {
    setUndoing(notificationId);
    outcome.start(taskId);
  };
  return { undoing: outcome.running ? undoing : null, start, result, closeResult: () => setResult(null) };
}
