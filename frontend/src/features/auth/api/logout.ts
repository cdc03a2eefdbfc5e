/** GET /api/auth/logout: ends the session on the server (the cookie is cleared there). */
import { useMutation } from '@tanstack/react-query';
import { api, emptyResultSchema, type CallOptions } from '@/lib/api-client';

export async function logout({ signal }: CallOptions = {}): Promise<void> {
  await api.get('/auth/logout', emptyResultSchema, { signal });
}

export function useLogout() {
  return useMutation({ mutationFn: () => logout() });
}
