/** GET /api/tasks/{id}: one task, polled until it finishes or fails. */
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query';
import { zEnvelopeItemTaskRecord } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';
import { taskKeys } from './keys';
import { isRunning, taskTiming, type Task } from './task';

const taskResultSchema = zEnvelopeItemTaskRecord.shape.result;

export async function getTask(id: Task['id'], { signal }: CallOptions = {}): Promise<Task> {
  const { item } = await api.get(`/tasks/${encodeURIComponent(String(id))}`, taskResultSchema, { signal });
  return item;
}

/** Without an id the query waits (`skipToken`) and asks nothing. */
export const taskQuery = (id: Task['id'] | null) =>
  queryOptions({
    queryKey: taskKeys.detail(id ?? ''),
    queryFn: id === null ? skipToken : ({ signal }) => getTask(id, { signal }),
    refetchInterval: (query) => (query.state.data && !isRunning(query.state.data) ? false : taskTiming.pollMs),
  });

export function useTask(id: Task['id'] | null) {
  return useQuery(taskQuery(id));
}
