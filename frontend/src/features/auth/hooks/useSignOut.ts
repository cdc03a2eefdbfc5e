/**
 * Sign out: GET logout, then drop every cached query, clear the cookies 'email' and 'vid',
 * say 'Sign out complete' and go to the login screen.
 */
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { clearCookies } from '@/lib/cookies';
import { showSnackbar } from '@/lib/notifications';
import { authKeys } from '../api/keys';
import { logout } from '../api/logout';

/** Empties the cache but keeps the session query, now signed out, so nothing refetches it. */
export function clearSession(queryClient: QueryClient) {
  const sessionHash = JSON.stringify(authKeys.session());
  queryClient.removeQueries({ predicate: (query) => query.queryHash !== sessionHash });
  queryClient.setQueryData(authKeys.session(), null);
}

export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: logout,
    onSuccess: () => {
      // Signed out first, so the login screen never renders for a still signed-in user.
      clearSession(queryClient);
      void navigate('/login', { replace: true, flushSync: true });
      clearCookies('email', 'vid');
      showSnackbar(t('auth.signOutComplete'));
    },
    onError: (error) => showSnackbar(errorMessage(error), 'danger'),
  });
}
