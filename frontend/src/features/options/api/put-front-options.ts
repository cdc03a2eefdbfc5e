/**
 * PUT /api/options/front with some option keys. Spec §7: the PUTs are queued and sent one at
 * a time, so a later save never overtakes an earlier one.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type CallOptions } from '@/lib/api-client';
import { frontOptionsResultSchema, type FrontOptions } from './front-options';
import { optionKeys } from './keys';

let queue: Promise<unknown> = Promise.resolve();

/** Runs `task` after every task queued before it has settled. */
export function enqueue<T>(task: () => Promise<T>): Promise<T> {
  const run = queue.then(task, task);
  queue = run.catch(() => undefined);
  return run;
}

export function putFrontOptions(options: FrontOptions, { signal }: CallOptions = {}): Promise<FrontOptions> {
  return enqueue(async () => {
    const { item } = await api.put('/options/front', options, frontOptionsResultSchema, { signal });
    return item;
  });
}

export function usePutFrontOptions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (options: FrontOptions) => putFrontOptions(options),
    onSuccess: (item) => queryClient.setQueryData(optionKeys.front(), item),
  });
}
