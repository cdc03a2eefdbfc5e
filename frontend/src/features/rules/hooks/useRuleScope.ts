/**
 * The campaign group the rules screen works in: the header's active account and campaign
 * group (rules act in one group, in its currency and time zone).
 */
import { useActiveAccount } from '@/features/accounts';
import type { RuleScope } from '../schema';

export interface ActiveGroup extends RuleScope {
  timeZone: string | null;
  orgName: string;
}

export function useRuleScope(): { group: ActiveGroup | null; isLoading: boolean } {
  const { account, org, isLoading } = useActiveAccount();
  if (!account || !org) return { group: null, isLoading };
  return { group: { accountId: account._id, orgId: org.orgId, currency: org.currency, timeZone: org.timeZone, orgName: org.displayName }, isLoading };
}
