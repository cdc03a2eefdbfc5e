import { copySchema, copySettings } from './DuplicateModal';

describe('duplicate-campaign settings (spec §3)', () => {
  it('defaults to one copy of everything, paused, and checks the money with the server’s rules', () => {
    const schema = copySchema('USD');
    const values = schema.parse({ numberOfCopies: 1, adGroup: true, campaignNegativeKeywords: true, customAds: true, cptBid: '', cpaGoal: '', paused: true });
    expect(copySettings(['7'], values, 'USD')).toEqual({ campaigns: ['7'], numberOfCopies: 1, adGroup: true, campaignNegativeKeywords: true, customAds: true, cptBid: null, cpaGoal: null, status: 'PAUSED' });
    const custom = schema.parse({ numberOfCopies: '3', adGroup: false, campaignNegativeKeywords: false, customAds: false, cptBid: '0.5', cpaGoal: '2', paused: false });
    expect(copySettings(['7', '8'], custom, 'USD')).toMatchObject({ numberOfCopies: 3, cptBid: { amount: '0.50', currency: 'USD' }, cpaGoal: { amount: '2.00', currency: 'USD' }, status: 'ENABLED' });
    expect(schema.safeParse({ ...values, numberOfCopies: 11 }).success).toBe(false);
    expect(schema.safeParse({ ...values, numberOfCopies: 1.5 }).success).toBe(false);
    const typed = (numberOfCopies: string) => schema.safeParse({ numberOfCopies, adGroup: true, campaignNegativeKeywords: true, customAds: true, cptBid: '', cpaGoal: '', paused: true });
    for (const text of ['', '0', '1.5', '1e1', ' ', '-1', '11']) expect(typed(text).error?.issues[0]?.message).toBe('Enter a whole number from 1 to 10');
    expect(typed(' 10 ').data?.numberOfCopies).toBe(10);
    expect(schema.safeParse({ ...values, cptBid: '0.01' }).error?.issues[0]?.message).toMatch(/at least/);
  });
});
