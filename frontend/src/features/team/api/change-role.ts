/** A member's role (docs/api/team.md): `PATCH team/one/{id}`. */
import { zEnvelopeItemMemberItem } from '@/api/generated/zod.gen';
import type { Role } from '@/features/auth';
import { api, type CallOptions } from '@/lib/api-client';
import { useTeamMutation } from './team-mutation';

export async function changeRole(id: string, role: Role, { signal }: CallOptions = {}) {
  return api.patch(`/team/one/${encodeURIComponent(id)}`, { role }, zEnvelopeItemMemberItem.shape.result, { signal });
}

export const useChangeRole = () => useTeamMutation(({ id, role }: { id: string; role: Role }) => changeRole(id, role));
