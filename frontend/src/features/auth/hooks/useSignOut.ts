/**
 * Sign out: GET logout, then drop every cached query, clear the cookies 'email' and 'vid'
 * and say 'Sign out complete'. The route guard then takes the user to the login screen:
 * one navigation, made where the session is read, so nothing races it.
 */
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { clearCookies } from '@/lib/cookies';
import { showSnackbar } from '@/lib/notifications';
import { authKeys } from '../api/keys';
import { logout } from '../api/logout';
import { setSessionHint } from '../api/session-hint';

/** Empties the cache but keeps the session query, now signed out, so nothing refetches it. */
export function clearSession(queryClient: QueryClient) {
  const sessionHash = JSON.stringify(authKeys.session());
  queryClient.removeQueries({ predicate: (query) => query.queryHash !== sessionHash });
  queryClient.setQueryData(authKeys.session(), null);
  setSessionHint(false);
  // What this sign-in kept for its tab (e.g. the offer modal it has shown) goes with it.
  window.sessionStorage.clear();
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => logout(),
    onSuccess: () => {
      clearSession(queryClient);
      clearCookies('email', 'vid');
      showSnackbar(t('auth.signOutComplete'));
    },
    onError: (error) => showSnackbar(errorMessage(error), 'danger'),
  });
}
