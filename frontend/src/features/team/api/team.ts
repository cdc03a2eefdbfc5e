/**
 * The team calls of docs/api/team.md: `GET team/all` (members and pending invitations),
 * `POST team/one/{email}/{role}` (invite; again for the same email is a resend),
 * `PATCH team/one/{id}` and `team/many` (roles), `DELETE team/one/{member|invitation}/{id}`
 * and `team/many` (remove, revoke). Every change reloads the list.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { zEnvelopeDeleted, zEnvelopeItemInvitationItem, zEnvelopeItemMemberItem, zEnvelopeTeamList, zEnvelopeUpdated, type zInvitationItem, type zMemberItem } from '@/api/generated/zod.gen';
import type { Role } from '@/features/auth';
import { api, apiRequest, type CallOptions } from '@/lib/api-client';
import { teamKeys } from './keys';

/** A member (the document's `MemberItem`): `lastActive` in Unix seconds, absent or null without a live session. */
export type Member = z.infer<typeof zMemberItem>;

/** An invitation (`InvitationItem`): `expired` within the last 30 days (older ones are deleted). */
export type Invitation = z.infer<typeof zInvitationItem>;

const teamSchema = zEnvelopeTeamList.shape.result;
export type Team = z.infer<typeof teamSchema>;

export async function getTeam({ signal }: CallOptions = {}): Promise<Team> {
  return api.get('/team/all', teamSchema, { signal });
}

export const teamQuery = () => queryOptions({ queryKey: teamKeys.list(), queryFn: ({ signal }) => getTeam({ signal }) });

export function useTeam() {
  return useQuery(teamQuery());
}

const invitationResultSchema = zEnvelopeItemInvitationItem.shape.result;

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
  return api.patch(`/team/one/${encodeURIComponent(id)}`, { role }, zEnvelopeItemMemberItem.shape.result, { signal });
}

export async function changeRoles(ids: string[], role: Role, { signal }: CallOptions = {}) {
  return api.patch('/team/many', { ids, role }, zEnvelopeUpdated.shape.result, { signal });
}

const deletedSchema = zEnvelopeDeleted.shape.result;

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
