/** One negative keyword list with its terms and places (`GET list/{id}`). */
import { skipToken, useQuery } from '@tanstack/react-query';
import { zEnvelopeItemListItem } from '@/api/generated/zod.gen';
import { api } from '@/lib/api-client';
import { negativeListKeys } from './keys';
import { listSchema } from './negative-list';

export function useNegativeList(listId: string | null) {
  return useQuery({
    queryKey: negativeListKeys.list(listId ?? ''),
    queryFn: listId ? async ({ signal }) => (await api.get(`/list/${encodeURIComponent(listId)}`, zEnvelopeItemListItem.shape.result.extend({ item: listSchema }), { signal })).item : skipToken,
  });
}
