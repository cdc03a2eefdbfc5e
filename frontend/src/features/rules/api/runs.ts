/**
 * Runs (docs/api/rules.md "A run"): run a rule now (`POST rules/user/{id}/run`, a task id),
 * a rule's runs (`GET rules/user/{id}/runs`), one run with its items (`GET rules/runs/{id}`)
 * and undoing one (`POST rules/runs/{id}/undo`, a task id).
 */
import { keepPreviousData, queryOptions, skipToken, useMutation, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api, type CallOptions } from '@/lib/api-client';
import { entityIdSchema } from '@/lib/ids';
import { ruleKeys } from './keys';

const decimalText = z.union([z.string(), z.number()]).transform(String);

export const runItemSchema = z.object({
  level: z.string(),
  entityId: z.string(),
  name: z.string().nullish(),
  campaignId: entityIdSchema.nullish(),
  /** The campaign's and ad group's names as synced (null when no longer known). */
  campaignName: z.string().nullish(),
  adGroupId: entityIdSchema.nullish(),
  adGroupName: z.string().nullish(),
  /** The metric values that matched (ratios as fractions). */
  values: z.record(z.string(), decimalText.nullable()).nullish(),
  action: z.string().nullish(),
  field: z.string().nullish(),
  oldValue: decimalText.nullish(),
  newValue: decimalText.nullish(),
  result: z.string(),
  message: z.string().nullish(),
});
export type RunItem = z.infer<typeof runItemSchema>;

export const runSchema = z.object({
  id: z.string().nullish(),
  ruleId: z.string().nullish(),
  ruleName: z.string().nullish(),
  trigger: z.string().nullish(),
  period: z.string().nullish(),
  status: z.string(),
  reason: z.string().nullish(),
  window: z.object({ startDate: z.string(), endDate: z.string() }).nullish(),
  newestCompleteDay: z.string().nullish(),
  startedAt: z.number().nullish(),
  finishedAt: z.number().nullish(),
  matched: z.number(),
  applied: z.number(),
  refused: z.number(),
  skipped: z.number(),
  undoOf: z.string().nullish(),
  undoneBy: z.string().nullish(),
  items: z.array(runItemSchema).optional(),
});
export type Run = z.infer<typeof runSchema>;

const taskIdSchema = z.object({ id: z.union([z.string(), z.number()]) });

export async function runRuleNow(ruleId: string): Promise<string | number> {
  const { id } = await api.post(`/rules/user/${encodeURIComponent(ruleId)}/run`, {}, taskIdSchema);
  return id;
}

export function useRunRuleNow() {
  return useMutation({ mutationFn: (ruleId: string) => runRuleNow(ruleId) });
}

export const RUNS_PAGE_SIZE = 20;

const runsResultSchema = z.object({ items: z.array(runSchema), total: z.number() });

export async function getRuns(ruleId: string, page: number, { signal }: CallOptions = {}) {
  return api.get(`/rules/user/${encodeURIComponent(ruleId)}/runs`, runsResultSchema, { query: { page, pageSize: RUNS_PAGE_SIZE }, signal });
}

export function useRuns(ruleId: string | null, page: number) {
  return useQuery(
    queryOptions({
      queryKey: ruleKeys.runs(ruleId ?? '', page),
      queryFn: ruleId ? ({ signal }) => getRuns(ruleId, page, { signal }) : skipToken,
      placeholderData: keepPreviousData,
    }),
  );
}

export async function getRun(runId: string, { signal }: CallOptions = {}): Promise<Run> {
  const { item } = await api.get(`/rules/runs/${encodeURIComponent(runId)}`, z.object({ item: runSchema }), { signal });
  return item;
}

export function useRun(runId: string | null) {
  return useQuery(
    queryOptions({
      queryKey: ruleKeys.run(runId ?? ''),
      queryFn: runId ? ({ signal }) => getRun(runId, { signal }) : skipToken,
    }),
  );
}

export async function undoRun(runId: string): Promise<string | number> {
  const { id } = await api.post(`/rules/runs/${encodeURIComponent(runId)}/undo`, {}, taskIdSchema);
  return id;
}

export function useUndoRun() {
  return useMutation({ mutationFn: (runId: string) => undoRun(runId) });
}

/**
 * Whether a run changed something that an undo can restore: it applied changes, is over
 * (done, or failed part way), is no undo itself and was not undone.
 */
export function canUndo(run: Run): boolean {
  return run.trigger !== 'UNDO' && !run.undoneBy && run.applied > 0 && (run.status === 'DONE' || run.status === 'FAILED');
}
