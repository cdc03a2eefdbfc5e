/** GET /api/auth/relogin: the silent sign-in on start; the session query of the app. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type CallOptions } from '@/lib/api-client';
import { authKeys } from './keys';
import { userResultSchema, type User } from './user';

export async function relogin({ signal }: CallOptions = {}): Promise<User> {
  const { item } = await api.get('/auth/relogin', userResultSchema, { signal });
  return item;
}

/** The signed-in user, or null when the silent relogin fails (spec §4: then signed out). */
export async function fetchSession({ signal }: CallOptions = {}): Promise<User | null> {
  try {
    return await relogin({ signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    return null;
  }
}

export const sessionQuery = () =>
  queryOptions({
    queryKey: authKeys.session(),
    queryFn: ({ signal }) => fetchSession({ signal }),
    staleTime: Infinity,
    retry: false,
  });

export function useSession() {
  const query = useQuery(sessionQuery());
  return { user: query.data ?? null, isLoading: query.isPending };
}
