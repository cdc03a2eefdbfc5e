/**
 * The active account and campaign group (docs/product.md#4-sign-in-account-and-session): kept in
 * local storage per user email, so each person who signs in on a browser gets their own choice
 * back, and restored at start against the accounts the workspace has now. Switching accounts clears
 * the active org.
 */
import type { Account } from './api/account';

export interface ActiveChoice {
  accountId: string;
  /** The active campaign group; null for all of the account's. */
  orgId: string | null;
}

const KEY_PREFIX = 'searchdeck:active-account:';

export function activeStorageKey(email: string): string {
  return `${KEY_PREFIX}${email.trim().toLowerCase()}`;
}

/** The stored choice of `email`, or null when none is stored or it is unreadable. */
export function readActive(storage: Storage, email: string): ActiveChoice | null {
  return parseActive(storage.getItem(activeStorageKey(email)));
}

/** A stored choice from its JSON text; null when absent or not a choice. */
export function parseActive(raw: string | null): ActiveChoice | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<ActiveChoice> | null;
    if (!value || typeof value.accountId !== 'string') return null;
    return { accountId: value.accountId, orgId: typeof value.orgId === 'string' ? value.orgId : typeof value.orgId === 'number' && Number.isSafeInteger(value.orgId) ? String(value.orgId) : null };
  } catch {
    return null;
  }
}

export function writeActive(storage: Storage, email: string, choice: ActiveChoice | null) {
  const key = activeStorageKey(email);
  if (choice) storage.setItem(key, JSON.stringify(choice));
  else storage.removeItem(key);
}

/**
 * The choice to use with the workspace's accounts now: the stored one while its account
 * still exists (its org only while the account still uses that campaign group), otherwise
 * the first account with no org, or null when there is no account.
 */
export function resolveActive(stored: ActiveChoice | null, accounts: readonly Account[]): ActiveChoice | null {
  const account = stored && accounts.find((a) => a._id === stored.accountId);
  if (account && stored) {
    const orgKept = stored.orgId !== null && account.acls.some((o) => o.orgId === stored.orgId);
    return { accountId: account._id, orgId: orgKept ? stored.orgId : null };
  }
  const first = accounts[0];
  return first ? { accountId: first._id, orgId: null } : null;
}

/** Choosing another account clears the org; choosing the same one keeps it. */
export function switchAccount(current: ActiveChoice | null, accountId: string): ActiveChoice {
  return { accountId, orgId: current?.accountId === accountId ? current.orgId : null };
}
