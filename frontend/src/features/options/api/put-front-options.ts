/**
 * PUT /api/options/front with some option keys. docs/product.md#7-the-calls-it-makes: the PUTs are
 * queued and sent one at a time, so a later save never overtakes an earlier one. A save of one key
 * from its current value (`useUpdateFrontOption`) names the version it read (`If-Match`); when
 * another window changed that key since, the server answers 412 and the save reads the options
 * again and applies the change to the fresh value (a preset added in another tab is kept).
 */
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api, type CallOptions } from '@/lib/api-client';
import { ApiError } from '@/lib/api-error';
import { frontOptionsResultSchema, type FrontOptions, type SavedOptions } from './front-options';
import { frontOptionsQuery } from './get-front-options';
import { optionKeys } from './keys';

let queue: Promise<unknown> = Promise.resolve();

/** Runs `task` after every task queued before it has settled. */
export function enqueue<T>(task: () => Promise<T>): Promise<T> {
  const run = queue.then(task, task);
  queue = run.catch(() => undefined);
  return run;
}

export interface PutOptions extends CallOptions {
  /** The version the save is based on; without it the keys are merged unconditionally. */
  version?: number | null | undefined;
}

export function putFrontOptions(options: FrontOptions, { signal, version }: PutOptions = {}): Promise<SavedOptions> {
  return enqueue(() =>
    api.put('/options/front', options, frontOptionsResultSchema, {
      signal,
      headers: version === null || version === undefined ? undefined : { 'If-Match': `"${version}"` },
    }),
  );
}

/** Saves tried before a conflicting save gives up. */
export const MAX_SAVE_ATTEMPTS = 3;

/**
 * Sets option `key` to `update(its current value)`, based on the version last read; on a
 * conflict (412) reads the options again and applies `update` to the fresh value.
 */
export async function updateFrontOption(queryClient: QueryClient, key: string, update: (current: unknown) => unknown): Promise<SavedOptions> {
  let saved = queryClient.getQueryData<SavedOptions>(optionKeys.front()) ?? (await queryClient.fetchQuery(frontOptionsQuery()));
  for (let attempt = 1; ; attempt += 1) {
    try {
      const answer = await putFrontOptions({ [key]: update(saved.item[key]) }, { version: saved.version });
      queryClient.setQueryData(optionKeys.front(), answer);
      return answer;
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 412) || attempt >= MAX_SAVE_ATTEMPTS) throw error;
      saved = await queryClient.fetchQuery({ ...frontOptionsQuery(), staleTime: 0 });
    }
  }
}

export function useUpdateFrontOption() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key, update }: { key: string; update: (current: unknown) => unknown }) => updateFrontOption(queryClient, key, update),
  });
}

/**
 * Saves several option keys at once, merging them unconditionally (a `null` value removes
 * a key): for options only this screen writes, such as the suggester's saved place. The
 * cached options take the answer.
 */
export function useSaveFrontOptions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (options: FrontOptions) => putFrontOptions(options),
    onSuccess: (answer) => queryClient.setQueryData(optionKeys.front(), answer),
  });
}
