/**
 * The details of a campaign creation or copy task (spec §3 Creation progress,
 * docs/api/creation.md "Jobs and their progress"): ad groups and campaigns created against
 * their totals, whether it finished, the failures that stopped it (`errorsMethod`), the
 * campaigns made with Apple's ids (`campaignsMapping`) and the items Apple refused one by one
 * (`rejected`). Read leniently: a field the server leaves out reads as empty.
 */
import { z } from 'zod';
import type { Task } from './api/task';

const id = z.union([z.string(), z.number()]).transform(String);

export const creationProgressSchema = z.object({
  groupsCreated: z.number().catch(0).default(0),
  groupsTotal: z.number().catch(0).default(0),
  campaignsCreated: z.number().catch(0).default(0),
  campaignsTotal: z.number().catch(0).default(0),
  keywordsCreated: z.number().catch(0).default(0),
  keywordsTotal: z.number().catch(0).default(0),
  finish: z.boolean().catch(false).default(false),
  errorsMethod: z.array(z.object({ method: z.string().catch(''), name: z.string().nullish(), message: z.string().nullish() })).catch([]).default([]),
  campaignsMapping: z
    .array(z.object({ name: z.string(), campaignId: id.nullish(), adGroups: z.array(z.object({ name: z.string(), adGroupId: id.nullish() })).catch([]).default([]) }))
    .catch([])
    .default([]),
  discoveryCampaignId: id.nullish().catch(null),
  rejected: z
    .array(z.object({ campaign: z.string().nullish(), adGroup: z.string().nullish(), text: z.string().nullish(), matchType: z.string().nullish(), message: z.string().nullish() }))
    .catch([])
    .default([]),
});
export type CreationProgress = z.output<typeof creationProgressSchema>;

export function creationProgressOf(details: Record<string, unknown> | undefined): CreationProgress {
  const parsed = creationProgressSchema.safeParse(details ?? {});
  return parsed.success ? parsed.data : creationProgressSchema.parse({});
}

export type CreationOutcome = { kind: 'running' } | { kind: 'done'; progress: CreationProgress } | { kind: 'failed'; progress: CreationProgress; message: string | null };

/**
 * Where a creation (or copy) task is: running; done (finished without a failure that stopped
 * it); or failed with the server's message (the task's error, else the first failure's, else
 * null: the screen shows spec §8's default, 'Unfortunately, there was a problem connecting to
 * the server').
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
