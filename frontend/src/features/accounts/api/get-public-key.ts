/**
 * POST /api/account/getPublicKey: the caller's pending public key for a key-pair connect. The
 * server answers the same key until `account/create` uses it, so it is cached like a read.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { zEnvelopePublicKey } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';
import { accountKeys } from './keys';

const publicKeyResultSchema = zEnvelopePublicKey.shape.result;

export async function getPublicKey({ signal }: CallOptions = {}): Promise<string> {
  const { publicKey } = await api.post('/account/getPublicKey', {}, publicKeyResultSchema, { signal });
  return publicKey;
}

export const publicKeyQuery = () =>
  queryOptions({
    queryKey: accountKeys.publicKey(),
    queryFn: ({ signal }) => getPublicKey({ signal }),
    staleTime: Infinity,
  });

export function usePublicKey(enabled: boolean) {
  return useQuery({ ...publicKeyQuery(), enabled });
}
