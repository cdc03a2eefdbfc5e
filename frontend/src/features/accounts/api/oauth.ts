/**
 * GET /api/account/oauth?state&code[&accountId][&error]: the oauth check that finishes a popup
 * connect. The server exchanges the code and saves the connection; `status` is 'OK' then.
 * `added` is false when the same Apple Ads user was connected already (its connection renamed).
 */
import { useMutation } from '@tanstack/react-query';
import { type z } from 'zod';
import { zEnvelopeOauthResult } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';

/** `status` 'OK' once saved; `added` false when that Apple Ads user was connected already (its connection updated, `previousName` its name before). */
const oauthResultSchema = zEnvelopeOauthResult.shape.result;
export type OauthResult = z.infer<typeof oauthResultSchema>;

export interface OauthInput {
  state: string;
  code?: string | undefined;
  /** The provider's refusal (the user denied consent). */
  error?: string | undefined;
  /** An account to reconnect. */
  accountId?: string | undefined;
}

export function checkOauth(input: OauthInput, { signal }: CallOptions = {}): Promise<OauthResult> {
  return api.get('/account/oauth', oauthResultSchema, { query: { ...input }, signal });
}

export function useCheckOauth() {
  return useMutation({ mutationFn: (input: OauthInput) => checkOauth(input) });
}
