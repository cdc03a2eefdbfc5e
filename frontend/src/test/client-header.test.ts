/**
 * The server refuses its eight state-changing GETs without `X-Searchdeck-Client: web` (a
 * cross-site link or image cannot set it). Each of them is called through the API client,
 * and the client sends the header on every request, whatever the call's own headers.
 */
import { activateAccount } from '@/features/accounts/api/use-account';
import { checkOauth } from '@/features/accounts/api/oauth';
import { refreshOrgs } from '@/features/accounts/api/refresh-orgs';
import { getOauthUrl } from '@/features/accounts/api/url-oauth';
import { logout } from '@/features/auth/api/logout';
import { recoveryPassword } from '@/features/auth/api/recovery-password';
import { giveMeTrial } from '@/features/plans/api/give-me-trial';
import { stopCollection } from '@/features/suggester/api/collect';
import { apiRequest, CLIENT_HEADER } from '@/lib/api-client';
import { z } from 'zod';
import { calls, fail, mockApi } from './fetch-mock';

const STATE_CHANGING_GETS: [string, () => Promise<unknown>][] = [
  ['GET /api/account/use/7', () => activateAccount({ accountId: '7', orgId: null })],
  ['GET /api/asa/getAccountData', () => refreshOrgs('7')],
  ['GET /api/pay/giveMeTrial', () => giveMeTrial()],
  ['GET /api/phrase/suggesterSearches/one/stop/9', () => stopCollection('9')],
  ['GET /api/account/urlOauth', () => getOauthUrl('Main')],
  ['GET /api/account/oauth', () => checkOauth({ state: 's', code: 'c' })],
  ['GET /api/auth/recoveryPassword', () => recoveryPassword({ email: 'a@example.com' })],
  ['GET /api/auth/logout', () => logout()],
];

describe('the client header', () => {
  it.each(STATE_CHANGING_GETS)('is sent on %s', async (route, call) => {
    // The answer does not matter here, only what was sent.
    mockApi(route, fail(400, 'Refused'));
    await call().catch(() => undefined);
    const sent = calls.filter((c) => `${c.method} ${c.url.split('?')[0]}` === route);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.headers[CLIENT_HEADER.name]).toBe('web');
  });

  it('is sent on writes too, and a call cannot replace it', async () => {
    mockApi('PUT /api/options/front', fail(400, 'Refused'));
    await apiRequest('/options/front', {
      method: 'PUT',
      body: {},
      schema: z.unknown(),
      headers: { 'If-Match': '"1"', [CLIENT_HEADER.name]: 'other' },
    }).catch(() => undefined);
    expect(calls[0]?.headers).toMatchObject({ 'If-Match': '"1"', [CLIENT_HEADER.name]: 'web' });
  });
});
