/**
 * Report tags (docs/product.md#2-other-ui tag colours, docs/product.md#7-the-calls-it-makes
 * reports/tag): the workspace's tags by table type (`GET /api/reports/allTags`, for the tag filter
 * and the tag picker), and the calls that manage them from the table — create one on rows
 * (`PUT reports/tag/many`), attach it to or detach it from rows (`PATCH` /
 * `DELETE reports/tag/many/{tagId}`), rename or recolour it (`PATCH reports/tag/one/{tagId}`) and
 * delete it (`DELETE reports/tag/one/{tagId}`). Rows are named by their account, campaign group and
 * Apple id, sent as a string (ids can pass 2^53). Every change reads the tags and the report again.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { zEnvelopeEmpty, zEnvelopeItemTagItem, zEnvelopeItemsTagItem, zEnvelopeTagsByType, type zTagItem } from '@/api/generated/zod.gen';
import { api, apiRequest, type CallOptions } from '@/lib/api-client';
import { optimizationKeys } from './keys';

/** A report tag (the document's `TagItem`): `items` is how many rows carry it. */
export type Tag = z.infer<typeof zTagItem>;
/** Every table type present, possibly empty (`TagsByType`). */
const tagsByTypeSchema = zEnvelopeTagsByType.shape.result;

export async function getAllTags({ signal }: CallOptions = {}): Promise<Record<string, Tag[]>> {
  return api.get('/reports/allTags', tagsByTypeSchema, { signal });
}

export function useAllTags() {
  return useQuery({ queryKey: optimizationKeys.tags(), queryFn: ({ signal }) => getAllTags({ signal }), staleTime: 60_000 });
}

/** Where tagged rows are: their connection and campaign group. */
export interface TagScope {
  accountId: string;
  orgId: number | string;
}

/** The rows of `ids` as the tag calls name them. */
export function tagItems({ accountId, orgId }: TagScope, ids: readonly string[]) {
  return ids.map((id) => ({ accountId, orgId: String(orgId), id }));
}

/** Longest tag name the server keeps. */
export const TAG_NAME_MAX = 40;

export type TagChange =
  | { kind: 'create'; scope: TagScope; ids: readonly string[]; name: string; color: string; type: string }
  | { kind: 'attach' | 'detach'; scope: TagScope; ids: readonly string[]; tagId: string }
  | { kind: 'update'; tagId: string; name?: string | undefined; color?: string | undefined }
  | { kind: 'delete'; tagId: string };

/** The call of one tag change. */
export async function changeTag(change: TagChange): Promise<void> {
  switch (change.kind) {
    case 'create':
      await api.put('/reports/tag/many', { tags: [{ name: change.name, color: change.color, type: change.type, items: tagItems(change.scope, change.ids) }] }, zEnvelopeItemsTagItem.shape.result);
      return;
    case 'attach':
      await api.patch(`/reports/tag/many/${encodeURIComponent(change.tagId)}`, { items: tagItems(change.scope, change.ids) }, zEnvelopeItemTagItem.shape.result);
      return;
    case 'detach':
      await apiRequest(`/reports/tag/many/${encodeURIComponent(change.tagId)}`, { method: 'DELETE', body: { items: tagItems(change.scope, change.ids) }, schema: zEnvelopeItemTagItem.shape.result });
      return;
    case 'update':
      await api.patch(`/reports/tag/one/${encodeURIComponent(change.tagId)}`, { name: change.name, color: change.color }, zEnvelopeItemTagItem.shape.result);
      return;
    case 'delete':
      await api.delete(`/reports/tag/one/${encodeURIComponent(change.tagId)}`, zEnvelopeEmpty.shape.result);
  }
}

export function useChangeTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeTag,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: optimizationKeys.tags() });
      await queryClient.invalidateQueries({ queryKey: [...optimizationKeys.all, 'report'] });
    },
  });
}
