/** The workspace's negative keyword lists (`GET list/all/negative`): each one's name and how many terms and places it has. */
import { skipToken, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { zEnvelopeItemsListItem } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';
import { negativeListKeys } from './keys';
import { summarySchema, type NegativeListSummary } from './negative-list';

export async function getNegativeLists({ signal }: CallOptions = {}): Promise<NegativeListSummary[]> {
  const { items } = await api.get('/list/all/negative', zEnvelopeItemsListItem.shape.result.extend({ items: z.array(summarySchema) }), { signal });
  return items;
}

export function useNegativeLists(enabled = true) {
  return useQuery({ queryKey: negativeListKeys.all, queryFn: enabled ? ({ signal }) => getNegativeLists({ signal }) : skipToken });
}
