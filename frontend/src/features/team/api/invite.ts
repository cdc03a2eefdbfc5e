/** An invitation (docs/api/team.md): `POST team/one/{email}/{role}`; again for the same email is a resend. */
import { zEnvelopeItemInvitationItem } from '@/api/generated/zod.gen';
import type { Role } from '@/features/auth';
import { api, type CallOptions } from '@/lib/api-client';
import type { Invitation } from './get-team';
import { useTeamMutation } from './team-mutation';

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

export const useInvite = () => useTeamMutation((input: InviteInput) => invite(input));
