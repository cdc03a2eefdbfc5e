/** GET /api/auth/relogin: the silent sign-in on start; the session query of the app. */
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { authKeys } from './keys';
import { userResultSchema, type User } from './user';

export async function relogin(): Promise<User> {
  const { item } = await api.get('/auth/relogin', userResultSchema);
  return item;
}

/** The signed-in user, or null when the silent relogin fails (spec §4: then signed out). */
export async function fetchSession(): Promise<User | null> {
  try {
    return await relogin();
  } catch {
    return null;
  }
}

export function useSession() {
  const query = useQuery({
    queryKey: authKeys.session(),
    queryFn: fetchSession,
    staleTime: Infinity,
    retry: false,
  });
  return { user: query.data ?? null, isLoading: query.isPending };
}
