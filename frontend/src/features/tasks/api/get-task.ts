/** GET /api/tasks/{id}: one task, polled until it finishes or fails. */
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { taskKeys } from './keys';
import { isRunning, TASK_POLL_MS, taskSchema, type Task } from './task';

const taskResultSchema = z.object({ item: taskSchema });

export async function getTask(id: Task['id']): Promise<Task> {
  const { item } = await api.get(`/tasks/${encodeURIComponent(String(id))}`, taskResultSchema);
  return item;
}

export function useTask(id: Task['id'] | null) {
  return useQuery({
    queryKey: taskKeys.detail(id ?? ''),
    queryFn: () => getTask(id as Task['id']),
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data && !isRunning(query.state.data) ? false : TASK_POLL_MS),
  });
}
