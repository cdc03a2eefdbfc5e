/** GET /api/options/front: the user's saved front-end options and their version. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type CallOptions } from '@/lib/api-client';
import { frontOptionsResultSchema, type FrontOptions, type SavedOptions } from './front-options';
import { optionKeys } from './keys';

export function getFrontOptions({ signal }: CallOptions = {}): Promise<SavedOptions> {
  return api.get('/options/front', frontOptionsResultSchema, { signal });
}

export const frontOptionsQuery = () =>
  queryOptions({ queryKey: optionKeys.front(), queryFn: ({ signal }) => getFrontOptions({ signal }) });

const itemOf = (saved: SavedOptions): FrontOptions => saved.item;

/** The saved options by key. */
export function useFrontOptions() {
  return useQuery({ ...frontOptionsQuery(), select: itemOf });
}
