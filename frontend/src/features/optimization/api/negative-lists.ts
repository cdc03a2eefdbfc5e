/**
 * Negative keyword lists (docs/api/creation.md "Negative keyword lists"): named lists of
 * negative keywords of the workspace, applied to campaigns or ad groups as real negatives at
 * Apple (job `apply-negative-lists`). The lists, one list, create, edit, delete; a create or
 * edit sent with `dryRun` saves nothing and answers the list's terms that would block a
 * keyword a place bids on, shown before the user confirms.
 */
import { useMutation, useQuery, useQueryClient, skipToken } from '@tanstack/react-query';
import { z } from 'zod';
import { taskKeys } from '@/features/tasks';
import { api, apiRequest, type CallOptions } from '@/lib/api-client';
import { optimizationKeys } from './keys';

const id = z.union([z.string(), z.number()]).transform(String);
const matchTypeSchema = z.enum(['EXACT', 'BROAD']).catch('EXACT');

export const placeSchema = z.object({
  campaignId: id,
  adGroupId: id.nullish().transform((v) => v ?? null),
  campaignName: z.string().nullish(),
  adGroupName: z.string().nullish(),
  orgId: id.nullish(),
  accountId: z.string().nullish(),
});
export type Place = z.output<typeof placeSchema>;

const summarySchema = z.object({
  _id: id,
  name: z.string(),
  keywordsCount: z.number().catch(0).default(0),
  // The listing names no places, only how many (issue 42 item 5: 'Applied to 0' came from
  // reading the absent places as none).
  placesCount: z.number(),
  taskId: id.nullish(),
});
export type NegativeListSummary = z.output<typeof summarySchema>;

const listSchema = summarySchema.extend({
  places: z.array(placeSchema).catch([]).default([]),
  keywords: z.array(z.object({ text: z.string(), matchType: matchTypeSchema })).catch([]).default([]),
});
export type NegativeList = z.output<typeof listSchema>;

const conflictSchema = z.object({
  text: z.string(),
  matchType: z.string(),
  campaignId: id,
  adGroupId: id.nullish(),
  keyword: z.object({ keywordId: id.nullish(), text: z.string(), matchType: z.string().nullish() }),
});
export type Conflict = z.output<typeof conflictSchema>;

export interface ListInput {
  name: string;
  keywords: { text: string; matchType: 'EXACT' | 'BROAD' }[];
  places: { campaignId: string; adGroupId: string | null }[];
}

const keys = {
  all: () => [...optimizationKeys.all, 'negative-lists'] as const,
  one: (listId: string) => [...optimizationKeys.all, 'negative-lists', listId] as const,
};

export async function getNegativeLists({ signal }: CallOptions = {}): Promise<NegativeListSummary[]> {
  const { items } = await api.get('/list/all/negative', z.object({ items: z.array(summarySchema) }), { signal });
  return items;
}

export function useNegativeLists(enabled = true) {
  return useQuery({ queryKey: keys.all(), queryFn: enabled ? ({ signal }) => getNegativeLists({ signal }) : skipToken });
}

export function useNegativeList(listId: string | null) {
  return useQuery({
    queryKey: keys.one(listId ?? ''),
    queryFn: listId ? async ({ signal }) => (await api.get(`/list/${encodeURIComponent(listId)}`, z.object({ item: listSchema }), { signal })).item : skipToken,
  });
}

/** The terms of `input` that would block a keyword its places bid on (nothing is saved). */
export async function checkConflicts(listId: string | null, input: ListInput, { signal }: CallOptions = {}): Promise<Conflict[]> {
  const schema = z.object({ conflicts: z.array(conflictSchema).catch([]).default([]) });
  const body = { ...input, dryRun: true };
  const { conflicts } = listId ? await api.put(`/list/${encodeURIComponent(listId)}`, body, schema, { signal }) : await api.post('/list/add', body, schema, { signal });
  return conflicts;
}

/** Saves the list (and applies it where it has places: the answer names the task). */
export async function saveNegativeList(listId: string | null, input: ListInput): Promise<NegativeList> {
  const schema = z.object({ item: listSchema });
  const body = { ...input, dryRun: false };
  const { item } = listId ? await api.put(`/list/${encodeURIComponent(listId)}`, body, schema) : await api.post('/list/add', body, schema);
  return item;
}

export async function deleteNegativeList(listId: string): Promise<void> {
  await apiRequest(`/list/${encodeURIComponent(listId)}`, { method: 'DELETE', query: { removeNegatives: true }, schema: z.unknown() });
}

export function useSaveNegativeList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ listId, input }: { listId: string | null; input: ListInput }) => saveNegativeList(listId, input),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: keys.all() });
      void queryClient.invalidateQueries({ queryKey: taskKeys.all });
    },
  });
}

export function useDeleteNegativeList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteNegativeList,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: keys.all() });
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
