/**
 * Polling a collection until it ends (docs/product.md#4-suggester): every 1000 ms; an answer with
 * the message 'METHOD_IS_EXECUTED' (the job still runs) is ignored and network errors are
 * skipped; any other error, or a task that failed, ends polling with 'Something went wrong'
 * as the collection error (docs/product.md#8-suggester-failure). A task stopped by the user ends it
 * as stopped.
 */
import { zCollectProgress } from '@/api/generated/zod.gen';
import { detailsAs, isRunning, type Task } from '@/features/tasks';
import { ApiError, defaultMessage } from '@/lib/api-error';
import type { Keyword, PollResult } from './api/types';
import { timing } from './wizard';

/** The server's word for "still running" (docs/product.md#4-suggester). */
export const METHOD_IS_EXECUTED = 'METHOD_IS_EXECUTED';
/** The collection error of a failed collection (docs/product.md#8-suggester-failure). */
export const COLLECTION_FAILED = 'Something went wrong';
/** The error of a task the user stopped (docs/api/suggester.md). */
export const STOPPED = 'Stopped';

export type PollOutcome =
  | { kind: 'done'; task: Task; items: Keyword[] }
  | { kind: 'failed'; error: string; task: Task | null }
  | { kind: 'stopped'; task: Task };

/**
 * A network error: the request never got an answer with data (the client then throws its
 * 502 without a message of the server's). A server's own 502 carries its message.
 */
export function isNetworkError(error: unknown): boolean {
  return error instanceof ApiError && error.status === 502 && error.message === defaultMessage(502) && error.errors.length === 0 && !('issues' in error.meta);
}

/** An error to poll past: METHOD_IS_EXECUTED, or the network. */
export function isSkippable(error: unknown): boolean {
  return (error instanceof ApiError && error.message === METHOD_IS_EXECUTED) || isNetworkError(error);
}

/** What one answer means: the outcome when the task ended, else null (keep polling). */
export function outcomeOf({ task, items }: PollResult): PollOutcome | null {
  if (task.error === STOPPED || detailsAs(task, zCollectProgress)?.stopped === true) return { kind: 'stopped', task };
  if (task.error) return { kind: 'failed', error: COLLECTION_FAILED, task };
  if (isRunning(task)) return null;
  return { kind: 'done', task, items: items ?? [] };
}

export interface PollOptions {
  poll: (signal: AbortSignal) => Promise<PollResult>;
  signal: AbortSignal;
  /** Each answer's task, as it comes (the phase and progress shown). */
  onTask?: (task: Task) => void;
  /** Poll at once (a resumed collection) instead of after the first interval. */
  immediate?: boolean;
  interval?: number;
  /** The wait between polls (tests pass their own). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** Resolves after `ms`, or rejects with the abort reason when `signal` aborts first. */
export function sleepFor(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Polls until the collection ends; rejects only when `signal` aborts. */
export async function pollUntilDone({ poll, signal, onTask, immediate = false, interval = timing.pollMs, sleep = sleepFor }: PollOptions): Promise<PollOutcome> {
  for (let first = true; ; first = false) {
    if (!(first && immediate)) await sleep(interval, signal);
    signal.throwIfAborted();
    let answer: PollResult;
    try {
      answer = await poll(signal);
    } catch (error) {
      if (signal.aborted) throw error;
      if (isSkippable(error)) continue;
      return { kind: 'failed', error: COLLECTION_FAILED, task: null };
    }
    onTask?.(answer.task);
    const outcome = outcomeOf(answer);
    if (outcome) return outcome;
  }
}
