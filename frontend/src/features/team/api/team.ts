/**
 * The team calls of docs/api/team.md: `GET team/all` (members and pending invitations),
 * `POST team/one/{email}/{role}` (invite; again for the same email is a resend),
 * `PATCH team/one/{id}` and `team/many` (roles), `DELETE team/one/{member|invitation}/{id}`
 * and `team/many` (remove, revoke). Every change reloads the list.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { roleSchema, type Role } from '@/features/auth';
import { api, apiRequest, type CallOptions } from '@/lib/api-client';
import { teamKeys } from './keys';

export const memberSchema = z.object({
  id: z.string(),
  email: z.string(),
  fullName: z.string(),
  role: roleSchema,
  /** Unix seconds; null without a live session in the workspace. */
  lastActive: z.number().nullable(),
  joinedAt: z.number(),
  you: z.boolean(),
});
export type Member = z.infer<typeof memberSchema>;

export const invitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: roleSchema,
  invitedBy: z.string().nullable(),
  createdAt: z.number(),
  expiresAt: z.number(),
  /** Expired (within the last 30 days; the server deletes older ones): its link no longer works. */
  expired: z.boolean().default(false),
});
export type Invitation = z.infer<typeof invitationSchema>;

const teamSchema = z.object({ items: z.array(memberSchema), invitations: z.array(invitationSchema) });
export type Team = z.infer<typeof teamSchema>;

export async function getTeam({ signal }: CallOptions = {}): Promise<Team> {
  return api.get('/team/all', teamSchema, { signal });
}

export const teamQuery = () => queryOptions({ queryKey: teamKeys.list(), queryFn: ({ signal }) => getTeam({ signal }) });

export function useTeam() {
  return useQuery(teamQuery());
}

const invitationResultSchema = z.object({ item: invitationSchema });

export interface InviteInput {
  email: string;
  role: Role;
}

export async function invite({ email, role }: InviteInput, { signal }: CallOptions = {}): Promise<Invitation> {
  const path = `/team/one/${encodeURIComponent(email)}/${role}`;
  const { item } = await api.post(path, undefined, invitationResultSchema, { signal });
  return item;
}

export async function changeRole(id: string, role: Role, { signal }: CallOptions = {}) {
  return api.patch(`/team/one/${encodeURIComponent(id)}`, { role }, z.object({ item: memberSchema }), { signal });
}

export async function changeRoles(ids: string[], role: Role, { signal }: CallOptions = {}) {
  return api.patch('/team/many', { ids, role }, z.object({ updated: z.number() }), { signal });
}

const deletedSchema = z.object({ deleted: z.number() });

export async function removeEntry(kind: 'member' | 'invitation', id: string, { signal }: CallOptions = {}) {
  return api.delete(`/team/one/${kind}/${encodeURIComponent(id)}`, deletedSchema, { signal });
}

export async function removeMembers(ids: string[], { signal }: CallOptions = {}) {
  return apiRequest('/team/many', { method: 'DELETE', body: { ids }, schema: deletedSchema, signal });
}

/** A mutation that reloads the team list once it settles (a refused one may still be stale). */
function useTeamMutation<I, R>(fn: (input: I) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => client.invalidateQueries({ queryKey: teamKeys.list() }),
  });
}

export const useInvite = () => useTeamMutation((input: InviteInput) => invite(input));
export const useChangeRole = () => useTeamMutation(({ id, role }: { id: string; role: Role }) => changeRole(id, role));
export const useChangeRoles = () => useTeamMutation(({ ids, role }: { ids: string[]; role: Role }) => changeRoles(ids, role));
export const useRemoveEntry = () =>
  useTeamMutation(({ kind, id }: { kind: 'member' | 'invitation'; id: string }) => removeEntry(kind, id));
export const useRemoveMembers = () => useTeamMutation((ids: string[]) => removeMembers(ids));
