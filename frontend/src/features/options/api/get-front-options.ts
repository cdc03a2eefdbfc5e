/** GET /api/options/front: the user's saved front-end options. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type CallOptions } from '@/lib/api-client';
import { frontOptionsResultSchema, type FrontOptions } from './front-options';
import { optionKeys } from './keys';

export async function getFrontOptions({ signal }: CallOptions = {}): Promise<FrontOptions> {
  const { item } = await api.get('/options/front', frontOptionsResultSchema, { signal });
  return item;
}

export const frontOptionsQuery = () =>
  queryOptions({ queryKey: optionKeys.front(), queryFn: ({ signal }) => getFrontOptions({ signal }) });

export function useFrontOptions() {
  return useQuery(frontOptionsQuery());
}
