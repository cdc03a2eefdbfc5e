/**
 * GET /api/account/use/{id}?orgId=: makes the account (and optionally one of its campaign
 * groups) the caller's active one on the server too, so server-side defaults follow the
 * selector. Without orgId the server clears the active org, as the selector does.
 */
import { useMutation } from '@tanstack/react-query';
import { type z } from 'zod';
import { zEnvelopeUsed } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';
import type { Account } from './account';

const usedResultSchema = zEnvelopeUsed.shape.result;
export type Used = z.infer<typeof usedResultSchema>;

export interface UseAccountInput {
  accountId: Account['_id'];
  orgId: string | null;
}

export function activateAccount({ accountId, orgId }: UseAccountInput, { signal }: CallOptions = {}): Promise<Used> {
  return api.get(`/account/use/${encodeURIComponent(accountId)}`, usedResultSchema, {
    query: { orgId: orgId ?? undefined },
    signal,
  });
}

export function useActivateAccount() {
  return useMutation({ mutationFn: (input: UseAccountInput) => activateAccount(input) });
}
