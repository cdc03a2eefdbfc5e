import { adGroupPath, campaignPath, campaignsPath, parseDrill, tabPath } from './paths';
import { drillSearch, readTableState, writeTableState, type TableState } from './url-state';

const today = '2026-11-19';

describe('table state in the address', () => {
  it('defaults to the last 7 days, no sort, page 1, and writes nothing for them', () => {
    const state = readTableState(new URLSearchParams(''), today);
    expect(state).toEqual({ range: { start: '2026-11-13', end: '2026-11-19', preset: 'last7' }, sort: null, page: 1, size: 50, filters: [], chart: ['localSpend', 'totalInstalls'] });
    expect(writeTableState(state).toString()).toBe('');
  });

  it.each<TableState>([
    { range: { start: '2026-11-01', end: '2026-11-19', preset: 'thisMonth' }, sort: { field: 'localSpend', order: 'desc' }, page: 3, size: 1000, filters: [], chart: ['localSpend', 'totalInstalls'] },
    { range: { start: '2026-10-02', end: '2026-10-09', preset: null }, sort: { field: 'campaignName', order: 'asc' }, page: 1, size: 50, filters: [{ type: 'name', condition: 'contains', value: 'fit' }], chart: ['taps', 'ttr'] },
    { range: { start: '2026-11-13', end: '2026-11-19', preset: 'last7' }, sort: null, page: 2, size: 250, filters: [{ type: 'metrics', metric: 'taps', condition: '><', value: [1, 5] }, { type: 'status', value: ['RUNNING'] }], chart: ['localSpend', 'totalInstalls'] },
  ])('round trips %j', (state) => {
    const search = writeTableState(state, new URLSearchParams('keep=1'));
    expect(search.get('keep')).toBe('1');
    expect(readTableState(new URLSearchParams(search.toString()), today)).toEqual(state);
  });

  it('swaps a reversed custom range and ignores what it cannot read', () => {
    expect(readTableState(new URLSearchParams('start=2026-11-10&end=2026-11-01'), today).range).toEqual({
      start: '2026-11-01',
      end: '2026-11-10',
      preset: null,
    });
    const bad = readTableState(new URLSearchParams('range=forever&start=2026-13-01&end=x&sort=a%20b&page=-2&size=999'), today);
    expect(bad).toEqual({ range: { start: '2026-11-13', end: '2026-11-19', preset: 'last7' }, sort: null, page: 1, size: 50, filters: [], chart: ['localSpend', 'totalInstalls'] });
  });

  it('writes a page size other than 50 and reads only the offered ones', () => {
    const state = readTableState(new URLSearchParams('size=1000'), today);
    expect(state.size).toBe(1000);
    expect(writeTableState({ ...state, size: 50 }).toString()).toBe('');
    expect(writeTableState(state).toString()).toBe('size=1000');
    expect(readTableState(new URLSearchParams('size=70'), today).size).toBe(50);
  });

  it('keeps only the date range when drilling', () => {
    expect(drillSearch(new URLSearchParams('range=yesterday&sort=taps&page=4'))).toBe('?range=yesterday');
    expect(drillSearch(new URLSearchParams('sort=taps'))).toBe('');
  });
});

describe('drill-down addresses', () => {
  it('builds the spec paths', () => {
    expect(campaignsPath('acc 1', '42')).toBe('/optimization/acc%201/42');
    expect(campaignPath('a', '42', '7')).toBe('/optimization/a/42/campaign-id-7/groups');
    expect(campaignPath('a', '42', '7', 'negative-keywords')).toBe('/optimization/a/42/campaign-id-7/negative-keywords');
    expect(adGroupPath('a', '42', '7', '9')).toBe('/optimization/a/42/campaign-id-7/ad-group-id-9/keywords');
  });

  it('parses every level back', () => {
    expect(parseDrill({ accountId: 'a', orgId: '42' })).toMatchObject({ level: 'CAMPAIGNS', campaignId: null });
    expect(parseDrill({ accountId: 'a', orgId: '42', campaign: 'campaign-id-7', tab: 'groups' })).toMatchObject({ level: 'GROUPS', campaignId: '7' });
    expect(parseDrill({ accountId: 'a', orgId: '42', campaign: 'campaign-id-7', tab: 'searchterms' })).toMatchObject({ level: 'SEARCHTERMS' });
    const adGroup = parseDrill({ accountId: 'a', orgId: '42', campaign: 'campaign-id-7', adGroup: 'ad-group-id-9', tab: 'negative-keywords' });
    expect(adGroup).toEqual({ accountId: 'a', orgId: '42', campaignId: '7', adGroupId: '9', tab: 'negative-keywords', level: 'NEGATIVE' });
    expect(tabPath(adGroup!, 'ads')).toBe('/optimization/a/42/campaign-id-7/ad-group-id-9/ads');
  });

  it('refuses what is not a level', () => {
    expect(parseDrill({ accountId: 'a', orgId: 'x' })).toBeNull();
    expect(parseDrill({ accountId: 'a', orgId: '42', campaign: 'campaign-7', tab: 'groups' })).toBeNull();
    expect(parseDrill({ accountId: 'a', orgId: '42', campaign: 'campaign-id-7', tab: 'budget' })).toBeNull();
    // An ad group has no ad-groups tab.
    expect(parseDrill({ accountId: 'a', orgId: '42', campaign: 'campaign-id-7', adGroup: 'ad-group-id-9', tab: 'groups' })).toBeNull();
  });
});
