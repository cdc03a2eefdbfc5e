/**
 * Runs (docs/api/rules.md "A run"): run a rule now (`POST rules/user/{id}/run`, a task id),
 * a rule's runs (`GET rules/user/{id}/runs`), one run with its items (`GET rules/runs/{id}`)
 * and undoing one (`POST rules/runs/{id}/undo`, a task id).
 */
import { keepPreviousData, queryOptions, skipToken, useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { zEnvelopeItemRunOut, zEnvelopeRuleTaskStarted, zEnvelopeRunPage, type zRunItem, type zRunOut } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';
import { ruleKeys } from './keys';

/** An item of a run as the server sends it (`RunItem` of the OpenAPI document). */
export type RunItem = z.infer<typeof zRunItem>;
/** A run, or a preview (status PREVIEW, nothing stored): `RunOut` of the document. */
export type Run = z.infer<typeof zRunOut>;

const taskStartedSchema = zEnvelopeRuleTaskStarted.shape.result;

export async function runRuleNow(ruleId: string): Promise<string> {
  const { id } = await api.post(`/rules/user/${encodeURIComponent(ruleId)}/run`, {}, taskStartedSchema);
  return id;
}

export function useRunRuleNow() {
  return useMutation({ mutationFn: (ruleId: string) => runRuleNow(ruleId) });
}

export const RUNS_PAGE_SIZE = 20;

export async function getRuns(ruleId: string, page: number, { signal }: CallOptions = {}) {
  return api.get(`/rules/user/${encodeURIComponent(ruleId)}/runs`, zEnvelopeRunPage.shape.result, { query: { page, pageSize: RUNS_PAGE_SIZE }, signal });
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
  const { item } = await api.get(`/rules/runs/${encodeURIComponent(runId)}`, zEnvelopeItemRunOut.shape.result, { signal });
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

export async function undoRun(runId: string): Promise<string> {
  const { id } = await api.post(`/rules/runs/${encodeURIComponent(runId)}/undo`, {}, taskStartedSchema);
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
