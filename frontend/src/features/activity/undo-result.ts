/**
 * What an undo's task reports when it ends (its `details`): how many entities were set back,
 * and those left as they were with why ("Changed since", Apple's refusal). Read leniently:
 * a rule run's undo reports in the rules' own shape, which has no list of entities.
 */
import { z } from 'zod';
import type { Task } from '@/features/tasks';

const leftSchema = z.object({
  level: z.string().catch(''),
  entityId: z.union([z.string(), z.number()]).transform(String).catch(''),
  entityName: z.string().nullish().catch(null),
  field: z.string().catch(''),
  message: z.string().catch(''),
});
export type LeftEntity = z.infer<typeof leftSchema>;

const detailsSchema = z.object({
  restored: z.number().optional().catch(undefined),
  skipped: z.number().optional().catch(undefined),
  refused: z.number().optional().catch(undefined),
  left: z.array(leftSchema).optional().catch(undefined),
});

export interface UndoResult {
  /** The task's own words ("Undone: 3 restored, 1 skipped"). */
  message: string;
  left: LeftEntity[];
}

export function undoResultOf(task: Task): UndoResult {
  const parsed = detailsSchema.safeParse(task.details);
  return { message: task.message, left: parsed.success ? (parsed.data.left ?? []) : [] };
}
