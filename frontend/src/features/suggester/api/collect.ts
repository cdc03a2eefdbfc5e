/**
 * The collection job (docs/api/suggester.md "Collection"): start it
 * (`POST /api/phrase/getListByShuffleTitlesPopularities/{adamId}?accountId=&orgId=` answers a
 * task id), poll the same route with `?id=` until the task ends (the items come with the
 * finished task), and stop it (`GET /api/phrase/suggesterSearches/one/stop/{id}`).
 */
import { zEnvelopeItemTaskRecord } from '@/api/generated/zod.gen';
import type { Task } from '@/features/tasks';
import { api, apiRequest, type CallOptions } from '@/lib/api-client';
import { pollResultSchema, scopeQuery, startResultSchema, type PollResult, type Scope, type SearchPayload } from './types';

const collectPath = (adamId: string) => `/phrase/getListByShuffleTitlesPopularities/${encodeURIComponent(adamId)}`;

/** Enqueues a collection for the app and answers its task id. */
export async function startCollection(adamId: string, scope: Scope, payload: SearchPayload, { signal }: CallOptions = {}): Promise<string> {
  const { id } = await apiRequest(collectPath(adamId), { method: 'POST', query: scopeQuery(scope), body: payload, schema: startResultSchema, signal });
  return id;
}

/** One poll of a collection: its task, and its keywords once it finished. */
export function pollCollection(adamId: string, scope: Scope, taskId: string, { signal }: CallOptions = {}): Promise<PollResult> {
  return apiRequest(collectPath(adamId), { method: 'POST', query: { ...scopeQuery(scope), id: taskId }, body: {}, schema: pollResultSchema, signal });
}

const stopResultSchema = zEnvelopeItemTaskRecord.shape.result;

/** Stops a collection (the task ends Stopped within a second) and answers its task. */
export async function stopCollection(taskId: string, { signal }: CallOptions = {}): Promise<Task> {
  const { item } = await api.get(`/phrase/suggesterSearches/one/stop/${encodeURIComponent(taskId)}`, stopResultSchema, { signal });
  return item;
}
