/** A background task as GET /api/tasks returns it (docs/product.md#3-background-task). */
import type { z } from 'zod';
import { zTaskRecord } from '@/api/generated/zod.gen';

/** The document's `TaskRecord`; `details` is one of the document's `TaskDetails` by kind. */
export const taskSchema = zTaskRecord;
export type Task = z.infer<typeof taskSchema>;

/**
 * A task's details read with the schema of its kind (a generated one of the document's
 * `TaskDetails`: `zCollectProgress`, `zCreationProgress`, `zBulkEditProgress`, …), or null
 * while it has reported none (`{}`) or is of another kind.
 */
export function detailsAs<S extends z.ZodType>(task: Pick<Task, 'details'> | null | undefined, schema: S): z.infer<S> | null {
  if (!task) return null;
  const parsed = schema.safeParse(task.details);
  return parsed.success ? parsed.data : null;
}

export function isRunning(task: Task): boolean {
  return !task.finish && !task.error;
}

/**
 * Polling while a task runs, read at each poll: the spec's polls are every 1000 ms. The
 * component tests that follow a task shorten it, so they wait on the task, not the clock.
 */
export const taskTiming = { pollMs: 1000 };
