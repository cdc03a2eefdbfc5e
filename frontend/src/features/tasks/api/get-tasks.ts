/** GET /api/tasks: the user's background tasks, polled while any of them runs. */
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { taskKeys } from './keys';
import { isRunning, TASK_POLL_MS, taskSchema, type Task } from './task';

const tasksResultSchema = z.object({ items: z.array(taskSchema) });

export async function getTasks(): Promise<Task[]> {
  const { items } = await api.get('/tasks', tasksResultSchema);
  return items;
}

export function useTasks() {
  return useQuery({
    queryKey: taskKeys.list(),
    queryFn: getTasks,
    refetchInterval: (query) => (query.state.data?.some(isRunning) ? TASK_POLL_MS : false),
  });
}
