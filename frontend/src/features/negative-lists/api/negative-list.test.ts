import { placeKey, placeOfKey } from './negative-list';

describe('negative keyword list places', () => {
  it('key campaigns and ad groups', () => {
    expect(placeKey({ campaignId: '7', adGroupId: null })).toBe('7');
    expect(placeKey({ campaignId: '7', adGroupId: '9' })).toBe('7/9');
    expect(placeOfKey('7/9')).toEqual({ campaignId: '7', adGroupId: '9' });
    expect(placeOfKey('7')).toEqual({ campaignId: '7', adGroupId: null });
  });
});
