/** A list saved: created (`POST list/add`) or edited (`PUT list/{id}`), and applied at Apple where it has places as a background task. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { zItemListItem } from '@/api/generated/zod.gen';
import { taskKeys } from '@/features/tasks';
import { api } from '@/lib/api-client';
import { negativeListKeys } from './keys';
import { listSchema, type ListInput, type NegativeList } from './negative-list';

/** Saves the list (and applies it where it has places: the answer names the task), the `Item_ListItem` branch of `Saved`. */
export async function saveNegativeList(listId: string | null, input: ListInput): Promise<NegativeList> {
  const schema = zItemListItem.extend({ item: listSchema });
  const body = { ...input, dryRun: false };
  const { item } = listId ? await api.put(`/list/${encodeURIComponent(listId)}`, body, schema) : await api.post('/list/add', body, schema);
  return item;
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
