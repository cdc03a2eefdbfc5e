/** A background task as GET /api/tasks returns it (spec §3 Background task). */
import { z } from 'zod';
import { entityIdSchema } from '@/lib/ids';

export const taskSchema = z.object({
  id: z.union([z.string(), z.number()]),
  kind: z.string(),
  /** The connection the task works for (a sync or bulk edit of one account), else null. */
  accountId: z.string().nullish(),
  /** The campaign group it works in, else null (a sync covers all of its connection's). */
  orgId: entityIdSchema.nullish(),
  message: z.string(),
  step: z.number(),
  totalSteps: z.number(),
  finish: z.boolean(),
  error: z.string().nullable(),
  percent: z.number(),
  details: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Task = z.infer<typeof taskSchema>;

export function isRunning(task: Task): boolean {
  return !task.finish && !task.error;
}

/**
 * Polling while a task runs, read at each poll: the spec's polls are every 1000 ms. The
 * component tests that follow a task shorten it, so they wait on the task, not the clock.
 */
export const taskTiming = { pollMs: 1000 };
