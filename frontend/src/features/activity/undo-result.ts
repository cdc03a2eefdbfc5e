/**
 * What an undo's task reports when it ends (its `details`, the document's `UndoProgress`):
 * how many entities were set back, and those left as they were with why ("Changed since",
 * Apple's refusal). A rule run's undo reports in the rules' own shape (`RunRuleProgress`),
 * which has no list of entities: it leaves none to show.
 */
import type { z } from 'zod';
import { zUndoProgress, type zUndoSkipped } from '@/api/generated/zod.gen';
import { detailsAs, type Task } from '@/features/tasks';

/** The document's `UndoSkipped`. */
export type LeftEntity = z.output<typeof zUndoSkipped>;

export interface UndoResult {
  /** The task's own words ("Undone: 3 restored, 1 skipped"). */
  message: string;
  left: LeftEntity[];
}

export function undoResultOf(task: Task): UndoResult {
  return { message: task.message, left: detailsAs(task, zUndoProgress)?.left ?? [] };
}
