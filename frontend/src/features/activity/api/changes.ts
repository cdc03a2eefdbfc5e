/**
 * `GET /api/accountsActions/{id}/changes` (docs/api/activity.md): the per-entity detail of
 * one notification, in the order the changes were applied — the detail drawer's table in
 * pages, and every page of it for the CSV export.
 */
import { keepPreviousData, queryOptions, skipToken, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { zEntityChange, zEnvelopeChangePage } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';
import { activityKeys } from './keys';

/** Rows per page of the drawer's table. */
export const CHANGES_PAGE_SIZE = 50;
/** The largest page the call gives, for the export. */
export const CHANGES_MAX_PAGE = 1000;

/** One entity's change (the document's `EntityChange`). */
export const entityChangeSchema = zEntityChange;
export type EntityChange = z.infer<typeof entityChangeSchema>;

const changesResultSchema = zEnvelopeChangePage.shape.result;
export type ChangesPage = z.infer<typeof changesResultSchema>;

export async function getChanges(id: string, limit: number, skip: number, { signal }: CallOptions = {}): Promise<ChangesPage> {
  return api.get(`/accountsActions/${encodeURIComponent(id)}/changes`, changesResultSchema, { query: { limit, skip }, signal });
}

/** Every change of notification `id`, read in the largest pages. */
export async function getAllChanges(id: string, { signal }: CallOptions = {}): Promise<EntityChange[]> {
  const items: EntityChange[] = [];
  for (;;) {
    const page = await getChanges(id, CHANGES_MAX_PAGE, items.length, { signal });
    items.push(...page.items);
    if (page.items.length === 0 || items.length >= page.total) return items;
  }
}

/** Page `page` (from 1) of notification `id`'s changes; nothing is asked without an id. */
export function useChanges(id: string | null, page: number) {
  return useQuery(
    queryOptions({
      queryKey: activityKeys.changes(id ?? '', page),
      queryFn: id ? ({ signal }) => getChanges(id, CHANGES_PAGE_SIZE, (page - 1) * CHANGES_PAGE_SIZE, { signal }) : skipToken,
      placeholderData: keepPreviousData,
    }),
  );
}
