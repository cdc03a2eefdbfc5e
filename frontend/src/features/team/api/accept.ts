/**
 * `POST team/checkCode {code}`: accepts an invitation for the signed-in user (docs/api/team.md).
 * Its refusals are 400s on `code` with their own message (not valid, used, expired, sent to
 * another email) and 409 `ALREADY_A_MEMBER`.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { zEnvelopeJoined } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';
import { teamKeys } from './keys';

const joinedSchema = zEnvelopeJoined.shape.result;
export type Joined = z.infer<typeof joinedSchema>;

export async function acceptInvitation(code: string, { signal }: CallOptions = {}): Promise<Joined> {
  return api.post('/team/checkCode', { code: code.trim() }, joinedSchema, { signal });
}

export function useAcceptInvitation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => acceptInvitation(code),
    onSuccess: () => client.invalidateQueries({ queryKey: teamKeys.workspaces() }),
  });
}
