/**
 * Signs the tab out when the server ends its session (a removal from the workspace: any
 * call answers 401 with the reason, docs/api/team.md) and keeps the server's words for the
 * sign-in screen, where the route guard then takes the user. Mounted once by the app frame.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { authKeys } from '../api/keys';
import { clearSession } from '../hooks/useSignOut';
import { keepRemovalNote, removalMessage } from '../session-end';

export function SessionEndWatcher() {
  const queryClient = useQueryClient();
  useEffect(() => {
    const ended = (error: unknown) => {
      const message = removalMessage(error);
      if (message === null || !queryClient.getQueryData(authKeys.session())) return;
      clearSession(queryClient);
      keepRemovalNote(message);
    };
    const queries = queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') ended(event.action.error);
    });
    const mutations = queryClient.getMutationCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') ended(event.action.error);
    });
    return () => {
      queries();
      mutations();
    };
  }, [queryClient]);
  return null;
}
