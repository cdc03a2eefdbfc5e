/**
 * The caller's workspaces (docs/api/team.md, "Workspaces"): `GET workspaces/all` for the
 * header's switcher and `POST workspaces/switch {workspaceId}`, which moves the session and
 * answers the user there. After a switch every cached query belonged to the other workspace:
 * the session becomes the new user and everything else is dropped, so the role, the sidebar,
 * the accounts and each screen's data load again for the workspace switched to. The active
 * account and campaign group become the ones the server keeps for the caller in that
 * workspace (`GET account/getUsed`: each pick is saved there per workspace), or the
 * workspace's first account when none was picked there.
 */
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { zEnvelopeItemsWorkspaceItem, zEnvelopeUsed, zWorkspaceItem } from '@/api/generated/zod.gen';
import { saveActiveChoice, type ActiveChoice } from '@/features/accounts';
import { authKeys, userResultSchema, type User } from '@/features/auth';
import { api, type CallOptions } from '@/lib/api-client';
import { teamKeys } from './keys';

export const workspaceSchema = zWorkspaceItem;
export type Workspace = z.infer<typeof workspaceSchema>;

export async function getWorkspaces({ signal }: CallOptions = {}): Promise<Workspace[]> {
  const { items } = await api.get('/workspaces/all', zEnvelopeItemsWorkspaceItem.shape.result, { signal });
  return items;
}

export const workspacesQuery = (enabled = true) =>
  queryOptions({ queryKey: teamKeys.workspaces(), queryFn: ({ signal }) => getWorkspaces({ signal }), enabled, staleTime: 60_000 });

export function useWorkspaces(enabled = true) {
  return useQuery(workspacesQuery(enabled));
}

export async function switchWorkspace(workspaceId: string, { signal }: CallOptions = {}): Promise<User> {
  const { item } = await api.post('/workspaces/switch', { workspaceId }, userResultSchema, { signal });
  return item;
}

const usedSchema = zEnvelopeUsed.shape.result;

/** The active account the server keeps for the caller in the session's workspace, if any. */
export async function activeChoiceHere({ signal }: CallOptions = {}): Promise<ActiveChoice | null> {
  const { item, orgId } = await api.get('/account/getUsed', usedSchema, { signal });
  return item ? { accountId: item._id, orgId: orgId === null || orgId === undefined ? null : String(orgId) } : null;
}

/** Switches, then reads the workspace's active account (none when that read fails). */
async function switchAndRestore(workspaceId: string): Promise<{ user: User; choice: ActiveChoice | null }> {
  const user = await switchWorkspace(workspaceId);
  const choice = await activeChoiceHere().catch(() => null);
  return { user, choice };
}

/** Makes `user` the session and drops every other query, so each loads for its workspace. */
export function enterWorkspace(client: QueryClient, user: User) {
  const sessionHash = JSON.stringify(authKeys.session());
  client.removeQueries({ predicate: (query) => query.queryHash !== sessionHash });
  client.setQueryData(authKeys.session(), user);
}

export function useSwitchWorkspace() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (workspaceId: string) => switchAndRestore(workspaceId),
    onSuccess: ({ user, choice }) => {
      saveActiveChoice(user.email, choice);
      enterWorkspace(client, user);
    },
  });
}
