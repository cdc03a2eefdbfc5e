/**
 * The details of a campaign creation or copy task (docs/product.md#3-creation-progress,
 * docs/api/creation.md "Jobs and their progress"): ad groups and campaigns created against
 * their totals, whether it finished, the failures that stopped it (`errorsMethod`), the
 * campaigns made with Apple's ids (`campaignsMapping`) and the items Apple refused one by one
 * (`rejected`): the document's `CreationProgress`. Before the job has reported any, the
 * details are `{}` (`NoDetails`) and read as nothing done yet.
 */
import type { z } from 'zod';
import { zCreationProgress } from '@/api/generated/zod.gen';
import { detailsAs, type Task } from './api/task';

export type CreationProgress = z.output<typeof zCreationProgress>;

/** What a creation has done before it reports: nothing, of no total. */
export const NOTHING_YET: CreationProgress = {
  groupsCreated: 0,
  groupsTotal: 0,
  campaignsCreated: 0,
  campaignsTotal: 0,
  keywordsCreated: 0,
  keywordsTotal: 0,
  finish: false,
  errorsMethod: [],
  campaignsMapping: [],
  discoveryCampaignId: null,
  rejected: [],
};

/** A task's details as its creation's progress (`{}`, or details of another kind, read as nothing done yet). */
export function creationProgressOf(details: Task['details']): CreationProgress {
  return detailsAs({ details }, zCreationProgress) ?? NOTHING_YET;
}

export type CreationOutcome = { kind: 'running' } | { kind: 'done'; progress: CreationProgress } | { kind: 'failed'; progress: CreationProgress; message: string | null };

/**
 * Where a creation (or copy) task is: running; done (finished without a failure that stopped
 * it); or failed with the server's message (the task's error, else the first failure's, else
 * null: the screen shows the default of docs/product.md#8-campaign-creation-failure,
 * 'Unfortunately, there was a problem connecting to the server').
 */
export function creationOutcome(task: Pick<Task, 'finish' | 'error' | 'details'>): CreationOutcome {
  const progress = creationProgressOf(task.details);
  const ended = task.finish || task.error !== null || progress.finish;
  if (!ended) return { kind: 'running' };
  if (task.error !== null || progress.errorsMethod.length > 0) {
    const message = task.error || progress.errorsMethod.find((e) => e.message)?.message || null;
    return { kind: 'failed', progress, message };
  }
  return { kind: 'done', progress };
}

/** A part of a total as a percentage (0 without a total). */
export const share = (done: number, total: number): number => (total > 0 ? Math.min(100, Math.round((done / total) * 100)) : 0);
