/**
 * The team (docs/api/team.md): `GET team/all`, the workspace's members and its pending
 * invitations.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { zEnvelopeTeamList, type zInvitationItem, type zMemberItem } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';
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
