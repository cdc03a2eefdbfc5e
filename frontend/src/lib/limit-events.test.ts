import { fail, mockApi, mockUndocumented, ok } from '@/test/fetch-mock';
import { api, emptyResultSchema } from './api-client';
import { isConditionCheck, onLimitReached } from './limit-events';

const limit = (type: string) => fail(403, 'LIMIT_HAS_BEEN_REACHED', [], { type });

describe('limits reached through the API client', () => {
  it('reports every LIMIT_HAS_BEEN_REACHED answer with its type, and nothing else', async () => {
    const seen: string[] = [];
    const stop = onLimitReached((type) => seen.push(type));
    mockUndocumented('POST /api/rules/one', limit('AVAILABLERULES'));
    mockUndocumented('POST /api/other', fail(403, 'Access restricted'));
    mockUndocumented('GET /api/fine', ok({}));
    await expect(api.post('/rules/one', {}, emptyResultSchema)).rejects.toThrow('LIMIT_HAS_BEEN_REACHED');
    await expect(api.post('/other', {}, emptyResultSchema)).rejects.toThrow('Access restricted');
    await api.get('/fine', emptyResultSchema);
    expect(seen).toEqual(['AVAILABLERULES']);
    stop();
    await expect(api.post('/rules/one', {}, emptyResultSchema)).rejects.toThrow('LIMIT_HAS_BEEN_REACHED');
    expect(seen).toEqual(['AVAILABLERULES']);
  });

  it('ignores condition-check calls (spec §8)', async () => {
    const seen: string[] = [];
    const stop = onLimitReached((type) => seen.push(type));
    mockApi('GET /api/account/checkAppsLimit', limit('AVAILABLEAPPS'));
    await expect(api.get('/account/checkAppsLimit', emptyResultSchema)).rejects.toThrow('LIMIT_HAS_BEEN_REACHED');
    expect(seen).toEqual([]);
    stop();
    expect(isConditionCheck('/asa/campaigns/checkCustomProductPageAds')).toBe(true);
    expect(isConditionCheck('/checklist')).toBe(false);
    expect(isConditionCheck('/asa/campaigns')).toBe(false);
  });
});
