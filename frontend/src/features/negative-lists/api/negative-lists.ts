/**
 * Negative keyword lists (docs/api/creation.md "Negative keyword lists"): named lists of
 * negative keywords of the workspace, applied to campaigns or ad groups as real negatives at
 * Apple (job `apply-negative-lists`). The lists, one list, create, edit, delete; a create or
 * edit sent with `dryRun` saves nothing and answers the list's terms that would block a
 * keyword a place bids on, shown before the user confirms.
 */
import { useMutation, useQuery, useQueryClient, skipToken } from '@tanstack/react-query';
import { z } from 'zod';
import {
  zAppliedPlace,
  type zConflict,
  zDryRun,
  zEnvelopeItemListItem,
  zEnvelopeItemsListItem,
  zEnvelopeRemoved,
  zItemListItem,
  zListItem,
  zListKeywordItem,
} from '@/api/generated/zod.gen';
import { taskKeys } from '@/features/tasks';
import { api, apiRequest, type CallOptions } from '@/lib/api-client';
import { negativeListKeys } from './keys';

/** The document's `AppliedPlace`, the campaign level's `adGroupId` null rather than absent (the pickers key places by it). */
export const placeSchema = zAppliedPlace.extend({ adGroupId: zAppliedPlace.shape.adGroupId.transform((v) => v ?? null) });
export type Place = z.output<typeof placeSchema>;

/**
 * The document's `ListItem` as the listing answers it: no terms or places, only how many
 * (issue 42 item 5: 'Applied to 0' came from reading the absent places as none), so its type
 * has no `places` to read.
 */
const summarySchema = zListItem.omit({ keywords: true, places: true });
export type NegativeListSummary = z.output<typeof summarySchema>;

/** A term with the match type the editor's switch shows (the document's default, EXACT, when none is given). */
const keywordSchema = zListKeywordItem.extend({
  matchType: zListKeywordItem.shape.matchType.transform((v): 'EXACT' | 'BROAD' => (v === 'BROAD' ? 'BROAD' : 'EXACT')),
});

/** One list (`list/{id}`, and what a save answers): the document's `ListItem` with its terms and places as lists. */
const listSchema = zListItem.extend({
  places: z
    .array(placeSchema)
    .nullish()
    .transform((v) => v ?? []),
  keywords: z
    .array(keywordSchema)
    .nullish()
    .transform((v) => v ?? []),
});
export type NegativeList = z.output<typeof listSchema>;

/** The document's `Conflict`: a term of the list and the keyword it would block. */
export type Conflict = z.output<typeof zConflict>;

export interface ListInput {
  name: string;
  keywords: { text: string; matchType: 'EXACT' | 'BROAD' }[];
  places: { campaignId: string; adGroupId: string | null }[];
}

export async function getNegativeLists({ signal }: CallOptions = {}): Promise<NegativeListSummary[]> {
  const { items } = await api.get('/list/all/negative', zEnvelopeItemsListItem.shape.result.extend({ items: z.array(summarySchema) }), { signal });
  return items;
}

export function useNegativeLists(enabled = true) {
  return useQuery({ queryKey: negativeListKeys.all, queryFn: enabled ? ({ signal }) => getNegativeLists({ signal }) : skipToken });
}

export function useNegativeList(listId: string | null) {
  return useQuery({
    queryKey: negativeListKeys.list(listId ?? ''),
    queryFn: listId ? async ({ signal }) => (await api.get(`/list/${encodeURIComponent(listId)}`, zEnvelopeItemListItem.shape.result.extend({ item: listSchema }), { signal })).item : skipToken,
  });
}

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

/** Saves the list (and applies it where it has places: the answer names the task), the `Item_ListItem` branch of `Saved`. */
export async function saveNegativeList(listId: string | null, input: ListInput): Promise<NegativeList> {
  const schema = zItemListItem.extend({ item: listSchema });
  const body = { ...input, dryRun: false };
  const { item } = listId ? await api.put(`/list/${encodeURIComponent(listId)}`, body, schema) : await api.post('/list/add', body, schema);
  return item;
}

export async function deleteNegativeList(listId: string): Promise<void> {
  await apiRequest(`/list/${encodeURIComponent(listId)}`, { method: 'DELETE', query: { removeNegatives: true }, schema: zEnvelopeRemoved.shape.result });
}

export function useSaveNegativeList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ listId, input }: { listId: string | null; input: ListInput }) => saveNegativeList(listId, input),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: negativeListKeys.all });
      void queryClient.invalidateQueries({ queryKey: taskKeys.all });
    },
  });
}

export function useDeleteNegativeList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteNegativeList,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: negativeListKeys.all });
      void queryClient.invalidateQueries({ queryKey: taskKeys.all });
    },
  });
}

/** A place's key in pickers: `campaignId` or `campaignId/adGroupId`. */
export const placeKey = (p: { campaignId: string; adGroupId: string | null }): string => (p.adGroupId ? `${p.campaignId}/${p.adGroupId}` : p.campaignId);
export function placeOfKey(key: string): { campaignId: string; adGroupId: string | null } {
  const [campaignId = '', adGroupId] = key.split('/');
  return { campaignId, adGroupId: adGroupId ?? null };
}
