/**
 * POST /api/account/sync/{id}: syncs one connection now (its entities, then its reports, as
 * the 3-hourly sync does). A sync of it already running is joined; a connection synced less
 * than 2 minutes ago is refused with 429 and the server's words ('… Try again in 87 s').
 */
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { zEnvelopeSyncStarted } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';
import type { Account } from './account';

const syncStartedSchema = zEnvelopeSyncStarted.shape.result;
export type SyncStarted = z.infer<typeof syncStartedSchema>;

export async function syncNow(accountId: Account['_id'], { signal }: CallOptions = {}): Promise<SyncStarted> {
  return api.post(`/account/sync/${encodeURIComponent(accountId)}`, {}, syncStartedSchema, { signal });
}

export function useSyncNow() {
  return useMutation({ mutationFn: (accountId: Account['_id']) => syncNow(accountId) });
}
