/** A member removed or an invitation revoked (docs/api/team.md): `DELETE team/one/{member|invitation}/{id}`. */
import { zEnvelopeDeleted } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';
import { useTeamMutation } from './team-mutation';

export async function removeEntry(kind: 'member' | 'invitation', id: string, { signal }: CallOptions = {}) {
  return api.delete(`/team/one/${kind}/${encodeURIComponent(id)}`, zEnvelopeDeleted.shape.result, { signal });
}

export const useRemoveEntry = () =>
  useTeamMutation(({ kind, id }: { kind: 'member' | 'invitation'; id: string }) => removeEntry(kind, id));
