/** A list deleted (`DELETE list/{id}`, `removeNegatives`: the negatives it put at Apple go too). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { zEnvelopeRemoved } from '@/api/generated/zod.gen';
import { taskKeys } from '@/features/tasks';
import { apiRequest } from '@/lib/api-client';
import { negativeListKeys } from './keys';

export async function deleteNegativeList(listId: string): Promise<void> {
  await apiRequest(`/list/${encodeURIComponent(listId)}`, { method: 'DELETE', query: { removeNegatives: true }, schema: zEnvelopeRemoved.shape.result });
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
