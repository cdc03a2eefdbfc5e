/** Several members' role at once (docs/api/team.md): `PATCH team/many`. */
import { zEnvelopeUpdated } from '@/api/generated/zod.gen';
import type { Role } from '@/features/auth';
import { api, type CallOptions } from '@/lib/api-client';
import { useTeamMutation } from './team-mutation';

export async function changeRoles(ids: string[], role: Role, { signal }: CallOptions = {}) {
  return api.patch('/team/many', { ids, role }, zEnvelopeUpdated.shape.result, { signal });
}

export const useChangeRoles = () => useTeamMutation(({ ids, role }: { ids: string[]; role: Role }) => changeRoles(ids, role));
