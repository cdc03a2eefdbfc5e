/**
 * A list checked before it is saved: a create (`POST list/add`) or edit (`PUT list/{id}`) sent
 * with `dryRun` saves nothing and answers the list's terms that would block a keyword a place
 * bids on, shown before the user confirms.
 */
import { zDryRun } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';
import type { Conflict, ListInput } from './negative-list';

/**
 * The terms of `input` that would block a keyword its places bid on (nothing is saved): the
 * `DryRun` branch of the document's `Saved`.
 */
export async function checkConflicts(listId: string | null, input: ListInput, { signal }: CallOptions = {}): Promise<Conflict[]> {
  const schema = zDryRun;
  const body = { ...input, dryRun: true };
  const { conflicts } = listId ? await api.put(`/list/${encodeURIComponent(listId)}`, body, schema, { signal }) : await api.post('/list/add', body, schema, { signal });
  return conflicts;
}
