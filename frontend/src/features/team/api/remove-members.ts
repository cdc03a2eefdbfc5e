/** Several members removed at once (docs/api/team.md): `DELETE team/many`. */
import { zEnvelopeDeleted } from '@/api/generated/zod.gen';
import { apiRequest, type CallOptions } from '@/lib/api-client';
import { useTeamMutation } from './team-mutation';

export async function removeMembers(ids: string[], { signal }: CallOptions = {}) {
  return apiRequest('/team/many', { method: 'DELETE', body: { ids }, schema: zEnvelopeDeleted.shape.result, signal });
}

export const useRemoveMembers = () => useTeamMutation((ids: string[]) => removeMembers(ids));
