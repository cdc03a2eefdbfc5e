/**
 * The campaign group the rules screens work in (rules act in one group, in its currency and
 * time zone): the header's active campaign group; with "All campaign groups" chosen, the
 * account's only one, or none until the user picks one (`choose`).
 */
import { useActiveAccount, type Org } from '@/features/accounts';
import type { RuleScope } from '../schema';

export interface ActiveGroup extends RuleScope {
  timeZone: string | null;
  orgName: string;
}

export interface RuleScopeState {
  group: ActiveGroup | null;
  isLoading: boolean;
  /** The campaign groups to pick from when none is chosen (the active account's). */
  choices: Org[];
  choose: (orgId: string) => void;
}

export function useRuleScope(): RuleScopeState {
  const { account, org, isLoading, setChoice } = useActiveAccount();
  const choices = account?.acls ?? [];
  const choose = (orgId: string) => {
    if (account) setChoice({ accountId: account._id, orgId });
  };
  const active = org ?? (choices.length === 1 ? choices[0]! : null);
  if (!account || !active) return { group: null, isLoading, choices, choose };
  return {
    group: { accountId: account._id, orgId: active.orgId, currency: active.currency ?? null, timeZone: active.timeZone ?? null, orgName: active.displayName },
    isLoading,
    choices,
    choose,
  };
}
