/**
 * What follows a successful connect, by either path
 * (docs/product.md#4-sign-in-account-and-session): the account list is refetched, the account
 * becomes the active one (no org), the user goes to its campaign groups (optimization_orgs) and is
 * told what happened: 'New account added', or, when the same Apple Ads user was connected already,
 * under which name and that it was updated (a connect never reports an addition that did not
 * happen).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useSession } from '@/features/auth';
import { t } from '@/i18n';
import { showLongSnackbar } from '@/lib/notifications';
import type { Account } from '../api/account';
import { accountKeys } from '../api/keys';
import { orgsPath } from '../paths';
import { useStoredChoice } from './useActiveAccount';

/** What a connect did, as the server answers it. */
export interface ConnectOutcome {
  /** False when the Apple Ads user was connected already and that connection was updated. */
  added: boolean;
  /** The updated connection's name before the connect. */
  previousName: string | null;
  /** Its name now (null: read from the refetched account list). */
  name: string | null;
}

/** The snackbar's text for `outcome`. */
export function connectedMessage({ added, previousName, name }: ConnectOutcome): string {
  if (added || previousName === null) return t('accounts.added');
  const was = `${t('accounts.alreadyConnected')} \u201c${previousName}\u201d`;
  return name === null || name === previousName
    ? `${was}; ${t('accounts.credentialsUpdated')}`
    : `${was}; ${t('accounts.nameUpdated')} \u201c${name}\u201d`;
}

export function useConnected() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { user } = useSession();
  const [, setChoice] = useStoredChoice(user?.email ?? null);
  return useCallback(
    async (accountId: string, outcome: ConnectOutcome) => {
      await queryClient.refetchQueries({ queryKey: accountKeys.list() });
      const accounts = queryClient.getQueryData<Account[]>(accountKeys.list());
      const name = outcome.name ?? accounts?.find((a) => a._id === accountId)?.name ?? null;
      setChoice({ accountId, orgId: null });
      await navigate(orgsPath(accountId));
      showLongSnackbar(connectedMessage({ ...outcome, name }));
    },
    [queryClient, navigate, setChoice],
  );
}
