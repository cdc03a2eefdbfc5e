/**
 * GET /api/account/urlOauth?accountName=: the provider's authorize page for the popup, with a
 * single-use state bound to the caller (the name travels with the state).
 */
import { zEnvelopeOauthUrl } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';

const urlResultSchema = zEnvelopeOauthUrl.shape.result;

export async function getOauthUrl(accountName: string, { signal }: CallOptions = {}): Promise<string> {
  const { url } = await api.get('/account/urlOauth', urlResultSchema, { query: { accountName }, signal });
  return url;
}
