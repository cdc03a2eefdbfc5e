/**
 * Bulk edits (docs/product.md#2-layout bulk edit headers, docs/product.md#7-the-calls-it-makes):
 * one field of the selected campaigns (`PUT /api/asa/campaigns/updates`), ad groups
 * (`PUT /api/asa/groups/updates/{campaignId}`) or keywords
 * (`PUT /api/asa/keywords/update/targeting/{campaignId}`) — set, raise or lower by an amount or a
 * percentage with an optional floor and cap, pause or enable. The server answers a `bulk-edit`
 * task; its details list every item's result (applied, refused with Apple's message, skipped as
 * unchanged). Tags are attached to the selection with `PATCH /api/reports/tag/many/{tagId}` or
 * created on it with `PUT /api/reports/tag/many`.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { zBulkEditProgress, zEnvelopeItemBulkEditStarted, type zItemResult } from '@/api/generated/zod.gen';
import { detailsAs, taskKeys, type Task } from '@/features/tasks';
import { api } from '@/lib/api-client';
import type { EntityId } from '@/lib/ids';
import type { Level } from '../paths';
import { optimizationKeys } from './keys';
import { EDITABLE_MONEY } from './quick-edit';

export type BulkAction = 'set' | 'raise' | 'lower' | 'pause' | 'enable';

export interface BulkEditInput {
  accountId: string;
  orgId: EntityId;
  level: Level;
  /** The campaign of the ad groups or keywords (null on the campaigns page). */
  campaignId: EntityId | null;
  ids: EntityId[];
  field: string;
  action: BulkAction;
  /** Amount to set or to raise or lower by (money text), or the percentage. */
  value?: string | undefined;
  percent?: number | undefined;
  floor?: string | undefined;
  cap?: string | undefined;
}

/** The levels with a bulk-edit header, and the fields it changes there. */
export function bulkFields(level: Level): readonly string[] {
  const money = EDITABLE_MONEY[level];
  return money ? [...money, 'status'] : [];
}

const startedSchema = zEnvelopeItemBulkEditStarted.shape.result;
export type BulkEditStarted = z.infer<typeof startedSchema>['item'];

/** The route of a bulk edit of `level`, or null where there is none. */
export function bulkEditPath(level: Level, campaignId: EntityId | null): string | null {
  if (level === 'CAMPAIGNS') return '/asa/campaigns/updates';
  if (campaignId === null) return null;
  if (level === 'GROUPS') return `/asa/groups/updates/${campaignId}`;
  if (level === 'KEYWORDS') return `/asa/keywords/update/targeting/${campaignId}`;
  return null;
}

/** The request body: only what the action uses. */
export function bulkEditBody(input: BulkEditInput): Record<string, unknown> {
  const { ids, field, action, value, percent, floor, cap } = input;
  if (action === 'pause' || action === 'enable') return { ids, field: 'status', action };
  const body: Record<string, unknown> = { ids, field, action };
  if (action !== 'set' && percent !== undefined) body.percent = percent;
  else body.value = value;
  if (action !== 'set') {
    if (floor !== undefined) body.floor = floor;
    if (cap !== undefined) body.cap = cap;
  }
  return body;
}

export async function putBulkEdit(input: BulkEditInput): Promise<BulkEditStarted> {
  const path = bulkEditPath(input.level, input.campaignId);
  if (!path) throw new Error(`No bulk edit for ${input.level}`);
  const query = new URLSearchParams({ accountId: input.accountId, orgId: input.orgId }).toString();
  const { item } = await api.put(`${path}?${query}`, bulkEditBody(input), startedSchema);
  return item;
}

export function useBulkEdit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: putBulkEdit,
    // The new task shows in the background-tasks popover, which polls while it runs.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: taskKeys.all }),
  });
}

/** One item's result in a bulk-edit task's details (`ItemResult`; an added negative keyword's id is 0 until Apple creates it). */
export type BulkItemResult = z.infer<typeof zItemResult>;

/** A bulk-edit task's details (the document's `BulkEditProgress`). */
export type BulkDetails = z.infer<typeof zBulkEditProgress>;

/** A bulk-edit task's counts and refused items, or null while it has none yet (`{}`). */
export function bulkDetailsOf(details: Task['details']): BulkDetails | null {
  return detailsAs({ details }, zBulkEditProgress);
}

const TAG_TYPES: Partial<Record<Level, string>> = { CAMPAIGNS: 'CAMPAIGNS', GROUPS: 'GROUPS', KEYWORDS: 'KEYWORDS', SEARCHTERMS: 'SEARCHTERMS' };

/** The tag type of a level's rows, or null where rows take no tags. */
export function tagTypeOf(level: Level): string | null {
  return TAG_TYPES[level] ?? null;
}

export interface TagAssignInput {
  accountId: string;
  orgId: EntityId;
  ids: EntityId[];
  /** An existing tag, or a new one to create on the selection. */
  tag: { id: string } | { name: string; color: string; type: string };
}

export async function assignTag({ accountId, orgId, ids, tag }: TagAssignInput): Promise<void> {
  const items = ids.map((id) => ({ accountId, orgId, id }));
  if ('id' in tag) await api.patch(`/reports/tag/many/${encodeURIComponent(tag.id)}`, { items }, z.unknown());
  else await api.put('/reports/tag/many', { tags: [{ ...tag, items }] }, z.unknown());
}

export function useAssignTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: assignTag,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: optimizationKeys.tags() });
      await queryClient.invalidateQueries({ queryKey: [...optimizationKeys.all, 'report'] });
    },
  });
}

/** The levels whose rows can be added as negative keywords (their names are the texts). */
export const NEGATIVE_SOURCES: readonly Level[] = ['KEYWORDS', 'SEARCHTERMS'];

export type NegativeLevel = 'campaign' | 'adGroup';

export interface NegativesInput {
  accountId: string;
  orgId: EntityId;
  /** The selected rows' texts and where they are. */
  items: { text: string; campaignId: EntityId; adGroupId: EntityId | null }[];
  level: NegativeLevel;
  matchType: 'EXACT' | 'BROAD';
}

/**
 * The calls that add `input`'s texts as negatives (docs/product.md#7-the-calls-it-makes
 * add/negative): campaign-level ones of one campaign to `add/negative/{campaignId}`, of several to
 * `add/negative` with their ids; ad-group-level ones once per ad group with that group's texts
 * (each text goes to the ad group its row is in). Rows without an ad group are left out at ad-group
 * level.
 */
export function negativeCalls(input: NegativesInput): { path: string; body: Record<string, unknown> }[] {
  const query = new URLSearchParams({ accountId: input.accountId, orgId: input.orgId }).toString();
  const unique = (texts: string[]) => [...new Set(texts)];
  if (input.level === 'campaign') {
    const campaigns = [...new Set(input.items.map((i) => i.campaignId))];
    const texts = unique(input.items.map((i) => i.text));
    if (campaigns.length === 0 || texts.length === 0) return [];
    if (campaigns.length === 1) return [{ path: `/asa/keywords/add/negative/${campaigns[0]}?${query}`, body: { texts, matchType: input.matchType } }];
    return [{ path: `/asa/keywords/add/negative?${query}`, body: { texts, matchType: input.matchType, campaignIds: campaigns } }];
  }
  const groups = new Map<string, { campaignId: EntityId; adGroupId: EntityId; texts: string[] }>();
  for (const item of input.items) {
    if (item.adGroupId === null) continue;
    const key = `${item.campaignId}/${item.adGroupId}`;
    const group = groups.get(key) ?? { campaignId: item.campaignId, adGroupId: item.adGroupId, texts: [] };
    group.texts.push(item.text);
    groups.set(key, group);
  }
  return [...groups.values()].map((g) => ({
    path: `/asa/keywords/add/negative/${g.campaignId}?${query}`,
    body: { texts: unique(g.texts), matchType: input.matchType, adGroupIds: [g.adGroupId] },
  }));
}

/** Starts the negatives' bulk-edit jobs, one task per call. */
export async function putNegatives(input: NegativesInput): Promise<BulkEditStarted[]> {
  const calls = negativeCalls(input);
  if (calls.length === 0) throw new Error('No keywords to add');
  const started: BulkEditStarted[] = [];
  for (const call of calls) started.push((await api.put(call.path, call.body, startedSchema)).item);
  return started;
}

export function useAddNegatives() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: putNegatives,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: taskKeys.all }),
  });
}
