/**
 * What follows a successful connect, by either path (spec §4): the account list is
 * refetched, the new account becomes the active one (no org), the user goes to its campaign
 * groups (optimization_orgs) and is told 'New account added'.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useSession } from '@/features/auth';
import { t } from '@/i18n';
import { showLongSnackbar } from '@/lib/notifications';
import { accountKeys } from '../api/keys';
import { orgsPath } from '../paths';
import { useStoredChoice } from './useActiveAccount';

export function useConnected() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { user } = useSession();
  const [, setChoice] = useStoredChoice(user?.email ?? null);
  return useCallback(
    async (accountId: string) => {
      await queryClient.refetchQueries({ queryKey: accountKeys.list() });
      setChoice({ accountId, orgId: null });
      await navigate(orgsPath(accountId));
      showLongSnackbar(t('accounts.added'));
    },
    [queryClient, navigate, setChoice],
  );
}
