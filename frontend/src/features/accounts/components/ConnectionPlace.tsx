/**
 * Where something works, as far as the connections say: the connection's name and its
 * campaign group's (`Main · Cloud Apps`), followed by `separator`; nothing while the
 * connection is unknown. The background-tasks popover shows it in each task's line, passed
 * in by the sidebar (the tasks feature does not read the connections).
 */
import { useAccounts } from '../api/get-accounts';

export interface ConnectionPlaceProps {
  accountId: string | null | undefined;
  orgId: string | null | undefined;
  separator: string;
}

export function ConnectionPlace({ accountId, orgId, separator }: ConnectionPlaceProps) {
  const { data: accounts } = useAccounts();
  if (!accountId) return null;
  const account = accounts?.find((a) => a._id === accountId);
  if (!account) return null;
  const org = orgId == null ? undefined : account.acls.find((o) => o.orgId === orgId);
  return `${org ? `${account.name} · ${org.displayName || String(org.orgId)}` : account.name}${separator}`;
}
