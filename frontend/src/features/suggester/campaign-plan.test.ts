import { campaignTotal, createBody, DEFAULT_PATTERN, fillPattern, nameOf, nameProblems, planCampaigns, settingsFieldOf, type CreationSettings } from './campaign-plan';
import type { PickedKeyword } from './saved';
import { defaultSegments, type Segment } from './segmentation';

const pick = (name: string, group: string): PickedKeyword => ({ name, impressions: 0, group });
const segments: Segment[] = [...defaultSegments().map((s) => (s.id === 'generic' ? { ...s, match: 'BOTH' as const } : s)), { id: 'manual-1', kind: 'manual', name: 'Filters', match: 'BROAD' }];
const selected = [pick('snap photo', 'brand'), pick('photo editor', 'generic'), pick('collage maker', 'generic'), pick('vintage filter', 'manual-1')];
const parts = { app: 'Snap Photo', country: 'US', segmentLabel: (s: Segment) => (s.kind === 'manual' ? s.name : s.kind[0]!.toUpperCase() + s.kind.slice(1)), matchLabel: (m: string) => ({ EXACT: 'Exact', BROAD: 'Broad', BOTH: 'Exact + Broad' })[m] ?? m };

describe('campaign plan (step 4)', () => {
  const plan = planCampaigns(selected, segments, DEFAULT_PATTERN, parts);

  it('makes one campaign per segment holding keywords, named from the pattern', () => {
    expect(plan.map((c) => [c.key, c.patternName, c.keywords])).toEqual([
      ['brand', 'Snap Photo - US - Brand - Exact', ['snap photo']],
      ['generic', 'Snap Photo - US - Generic - Exact + Broad', ['photo editor', 'collage maker']],
      ['manual-1', 'Snap Photo - US - Filters - Broad', ['vintage filter']],
    ]);
    expect(nameOf(plan[0]!, { brand: 'My brand' })).toBe('My brand');
    expect(nameOf(plan[1]!, { brand: 'My brand' })).toBe(plan[1]!.patternName);
    expect(campaignTotal(plan, true)).toBe(4);
    expect(campaignTotal(plan, false)).toBe(3);
  });

  it('fills patterns without dangling separators', () => {
    expect(fillPattern('{app} - {country} - {segment} - {match}', { app: 'A', country: 'US', segment: 'Discovery', match: '' })).toBe('A - US - Discovery');
    expect(fillPattern('{country}  {segment}', { app: '', country: 'US', segment: 'Brand', match: '' })).toBe('US Brand');
    expect(fillPattern('{app} - {match} - {segment}', { app: 'A', country: '', segment: 'B', match: '' })).toBe('A - B');
  });

  it('flags empty, long, repeated (case-insensitive) and existing names', () => {
    expect(nameProblems(['US Brand', ' us brand', '', 'x'.repeat(201), 'Taken', 'Fine'], new Set(['taken']))).toEqual(['duplicate', 'duplicate', 'empty', 'long', 'exists', null]);
  });

  it('maps the body’s field errors to the settings form', () => {
    expect(settingsFieldOf('campaigns.0.dailyBudgetAmount')).toBe('dailyBudget');
    expect(settingsFieldOf('campaigns[1].dailyBudgetAmount.amount')).toBe('dailyBudget');
    expect(settingsFieldOf('campaigns.0.groups.1.defaultBidAmount')).toBe('defaultBid');
    expect(settingsFieldOf('campaigns.0.groups.1.cpaGoal')).toBe('cpaGoal');
    expect(settingsFieldOf('campaigns.0.countriesOrRegions.2')).toBe('countries');
    expect(settingsFieldOf('campaigns.0.name')).toBeNull();
  });

  it('builds the create payload (spec §3): one ad group per match type, the broad one negating the exact keywords', () => {
    const settings: CreationSettings = { countries: ['US', 'GB'], dailyBudget: '50.00', defaultBid: '1.20', cpaGoal: null, searchMatch: false, discovery: true, productPageId: 'p1', paused: true };
    const body = createBody(plan, { brand: ' My brand ' }, settings, { adamId: '100', currency: 'USD', discoveryName: 'Snap Photo - US - Discovery' });
    expect(body.adamId).toBe('100');
    expect(body.productPageId).toBe('p1');
    expect(body.discovery).toEqual({ name: 'Snap Photo - US - Discovery', countriesOrRegions: ['US', 'GB'], dailyBudgetAmount: { amount: '50.00', currency: 'USD' }, defaultBidAmount: { amount: '1.20', currency: 'USD' }, cpaGoal: null });
    const [brand, generic, filters] = body.campaigns;
    expect(brand).toMatchObject({
      adChannelType: 'SEARCH',
      adamId: '100',
      name: 'My brand',
      status: 'PAUSED',
      supplySources: ['APPSTORE_SEARCH_RESULTS'],
      billingEvent: 'TAPS',
      countriesOrRegions: ['US', 'GB'],
      dailyBudgetAmount: { amount: '50.00', currency: 'USD' },
      creativeSets: [],
      ruleIds: [],
    });
    expect(brand!.groups).toEqual([
      { name: 'Exact', defaultBidAmount: { amount: '1.20', currency: 'USD' }, cpaGoal: null, automatedKeywordsOptIn: false, keywords: [{ text: 'snap photo', matchType: 'EXACT', bidAmount: null }], negativeKeywords: [] },
    ]);
    expect(generic!.groups.map((g) => g.name)).toEqual(['Exact', 'Broad']);
    expect(generic!.groups[1]!.keywords.every((k) => k.matchType === 'BROAD')).toBe(true);
    expect(generic!.groups[1]!.negativeKeywords).toEqual([
      { text: 'photo editor', matchType: 'EXACT' },
      { text: 'collage maker', matchType: 'EXACT' },
    ]);
    // Broad alone negates nothing.
    expect(filters!.groups).toHaveLength(1);
    expect(filters!.groups[0]!.negativeKeywords).toEqual([]);

    const enabled = createBody(plan, {}, { ...settings, paused: false, discovery: false, cpaGoal: '3.00', searchMatch: true }, { adamId: '100', currency: 'USD', discoveryName: 'x' });
    expect(enabled.discovery).toBeNull();
    expect(enabled.campaigns[0]!.status).toBe('ENABLED');
    expect(enabled.campaigns[0]!.groups[0]).toMatchObject({ cpaGoal: { amount: '3.00', currency: 'USD' }, automatedKeywordsOptIn: true });
  });
});
