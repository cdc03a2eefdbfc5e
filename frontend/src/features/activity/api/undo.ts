/**
 * `POST /api/accountsActions/{id}/undo` (editors; docs/api/activity.md): enqueues the undo of
 * a notification's changes and answers the task to follow (202, `{taskId}`). 409
 * `ALREADY_UNDONE` and 400 `NOT_UNDOABLE` come back as errors with the server's message.
 */
import { useMutation } from '@tanstack/react-query';
import { zEnvelopeUndoStarted } from '@/api/generated/zod.gen';
import { api } from '@/lib/api-client';

export async function undoNotification(id: string): Promise<string> {
  const { taskId } = await api.post(`/accountsActions/${encodeURIComponent(id)}/undo`, {}, zEnvelopeUndoStarted.shape.result);
  return taskId;
}

export function useUndoNotification() {
  return useMutation({ mutationFn: (id: string) => undoNotification(id) });
}
