/**
 * GET /api/account/oauth?state&code[&accountId][&error]: the oauth check that finishes a popup
 * connect. The server exchanges the code and saves the connection; `status` is 'OK' then.
 * `added` is false when the same Apple Ads user was connected already (its connection renamed).
 */
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { api, type CallOptions } from '@/lib/api-client';

const oauthResultSchema = z.object({
  status: z.string(),
  accountId: z.string(),
  /** False when the Apple Ads user was connected already and that connection was updated. */
  added: z.boolean().catch(true),
  /** The updated connection's name before this connect. */
  previousName: z.string().nullish(),
});
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
