/**
 * `POST team/invitation {email, code}`: what an invitation link offers — the workspace, who
 * sent it, the role — asked before its reader signs in, so the invite screen names them
 * (docs/api/team.md). Nothing changes; its refusals are the code's (not valid, used, expired).
 */
import { skipToken, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { zEnvelopeInvitationOffer } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';
import type { InviteLink } from '../invite-link';
import { teamKeys } from './keys';

const offerSchema = zEnvelopeInvitationOffer.shape.result;
export type InvitationOffer = z.infer<typeof offerSchema>;

export async function getInvitationOffer(link: InviteLink, { signal }: CallOptions = {}): Promise<InvitationOffer> {
  return api.post('/team/invitation', { email: link.email, code: link.code }, offerSchema, { signal });
}

/** The offer of `link`; not asked without both its email and code. A refusal is not retried. */
export function useInvitationOffer(link: InviteLink) {
  return useQuery({
    queryKey: [...teamKeys.all, 'offer', link.email, link.code],
    queryFn: link.email && link.code ? ({ signal }) => getInvitationOffer(link, { signal }) : skipToken,
    retry: false,
    staleTime: Infinity,
  });
}
