/** GET /api/options/front: the user's saved front-end options. */
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { frontOptionsResultSchema, type FrontOptions } from './front-options';
import { optionKeys } from './keys';

export async function getFrontOptions(): Promise<FrontOptions> {
  const { item } = await api.get('/options/front', frontOptionsResultSchema);
  return item;
}

export function useFrontOptions() {
  return useQuery({ queryKey: optionKeys.front(), queryFn: getFrontOptions });
}
