/**
 * The active account and campaign group of the signed-in user: the choice stored in local
 * storage under their email (shared by every component through one storage event), resolved
 * against the workspace's accounts as they are now.
 */
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { useSession } from '@/features/auth';
import { activeStorageKey, parseActive, resolveActive, writeActive, type ActiveChoice } from '../active';
import type { Account, Org } from '../api/account';
import { useAccounts } from '../api/get-accounts';

const CHANGED = 'searchdeck:active-account-changed';

function subscribe(onChange: () => void) {
  window.addEventListener('storage', onChange);
  window.addEventListener(CHANGED, onChange);
  return () => {
    window.removeEventListener('storage', onChange);
    window.removeEventListener(CHANGED, onChange);
  };
}

/**
 * Stores `email`'s choice and tells every component using it (a workspace switch restores the
 * choice the server keeps for the workspace switched to this way).
 */
export function saveActiveChoice(email: string, choice: ActiveChoice | null) {
  writeActive(window.localStorage, email, choice);
  window.dispatchEvent(new Event(CHANGED));
}

/** The stored choice of `email` and its setter (null email: nothing stored, nothing saved). */
export function useStoredChoice(email: string | null) {
  const raw = useSyncExternalStore(subscribe, () => (email ? window.localStorage.getItem(activeStorageKey(email)) : null));
  const stored = useMemo(() => parseActive(raw), [raw]);
  const save = useCallback(
    (choice: ActiveChoice | null) => {
      if (email) saveActiveChoice(email, choice);
    },
    [email],
  );
  return [stored, save] as const;
}

export interface ActiveAccount {
  accounts: Account[];
  isLoading: boolean;
  /** Why the account list could not be loaded. */
  error: Error | null;
  account: Account | null;
  org: Org | null;
  choice: ActiveChoice | null;
  setChoice: (choice: ActiveChoice | null) => void;
}

export function useActiveAccount(): ActiveAccount {
  const { user } = useSession();
  const query = useAccounts(user !== null);
  const [stored, setChoice] = useStoredChoice(user?.email ?? null);
  const accounts = useMemo(() => query.data ?? [], [query.data]);
  const choice = useMemo(() => resolveActive(stored, accounts), [stored, accounts]);
  const account = accounts.find((a) => a._id === choice?.accountId) ?? null;
  const org = account?.acls.find((o) => o.orgId === choice?.orgId) ?? null;
  return { accounts, isLoading: user !== null && query.isPending, error: query.error, account, org, choice, setChoice };
}
