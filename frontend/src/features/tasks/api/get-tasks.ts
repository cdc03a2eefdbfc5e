/** GET /api/tasks: the user's background tasks, polled while any of them runs. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { zEnvelopeItemsTaskRecord } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';
import { taskKeys } from './keys';
import { isRunning, taskTiming, type Task } from './task';

const tasksResultSchema = zEnvelopeItemsTaskRecord.shape.result;

export async function getTasks({ signal }: CallOptions = {}): Promise<Task[]> {
  const { items } = await api.get('/tasks', tasksResultSchema, { signal });
  return items;
}

export const tasksQuery = () =>
  queryOptions({
    queryKey: taskKeys.list(),
    queryFn: ({ signal }) => getTasks({ signal }),
    refetchInterval: (query) => (query.state.data?.some(isRunning) ? taskTiming.pollMs : false),
  });

export function useTasks() {
  return useQuery(tasksQuery());
}
