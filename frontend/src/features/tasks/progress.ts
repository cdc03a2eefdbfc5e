/**
 * Task progress (docs/product.md#4-background-tasks): 0 at step 0, 100 when finished or failed,
 * otherwise round(step / (totalSteps + 1) * 100). Primary while running, green at 100, red on error.
 */
import type { Task } from './api/task';

export function taskProgress({ step, totalSteps, finish, error }: Pick<Task, 'step' | 'totalSteps' | 'finish' | 'error'>): number {
  if (finish || error) return 100;
  if (step === 0) return 0;
  return Math.round((step / (totalSteps + 1)) * 100);
}

export type ProgressTone = 'primary' | 'success' | 'danger';

export function progressTone(task: Pick<Task, 'step' | 'totalSteps' | 'finish' | 'error'>): ProgressTone {
  if (task.error) return 'danger';
  return taskProgress(task) === 100 ? 'success' : 'primary';
}

export const TONE_COLORS: Record<ProgressTone, string> = {
  primary: 'blue',
  success: 'green',
  danger: 'red',
};
