/** A background task as GET /api/tasks returns it (spec §3 Background task). */
import type { z } from 'zod';
import { zTaskRecord } from '@/api/generated/zod.gen';

/** The document's `TaskRecord`; `details` is kind-specific (read by each kind's screen). */
export const taskSchema = zTaskRecord;
export type Task = z.infer<typeof taskSchema>;

export function isRunning(task: Task): boolean {
  return !task.finish && !task.error;
}

/**
 * Polling while a task runs, read at each poll: the spec's polls are every 1000 ms. The
 * component tests that follow a task shorten it, so they wait on the task, not the clock.
 */
export const taskTiming = { pollMs: 1000 };
