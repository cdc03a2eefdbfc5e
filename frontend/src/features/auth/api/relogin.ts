/** GET /api/auth/relogin: the silent sign-in on start; the session query of the app. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type CallOptions } from '@/lib/api-client';
import { ApiError } from '@/lib/api-error';
import { keepRemovalNote, removalMessage } from '../session-end';
import { authKeys } from './keys';
import { hasSessionHint, setSessionHint } from './session-hint';
import { userResultSchema, type User } from './user';

export async function relogin({ signal }: CallOptions = {}): Promise<User> {
  const { item } = await api.get('/auth/relogin', userResultSchema, { signal });
  return item;
}

/**
 * The signed-in user, or null when the silent relogin fails
 * (docs/product.md#4-sign-in-account-and-session: then signed out). Without a sign of a session in
 * this browser (./session-hint) nothing is asked: the answer would be a 401, which the browser logs
 * as an error on every signed-out page load.
 */
export async function fetchSession({ signal }: CallOptions = {}): Promise<User | null> {
  if (!hasSessionHint()) return null;
  try {
    const user = await relogin({ signal });
    setSessionHint(true);
    return user;
  } catch (error) {
    if (signal?.aborted) throw error;
    // Only the server's 'no session' forgets the sign; a network error or a 5xx does not.
    if (error instanceof ApiError && error.status === 401) setSessionHint(false);
    // A session ended by a removal: the sign-in screen says so.
    const removed = removalMessage(error);
    if (removed !== null) keepRemovalNote(removed);
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
