import { creationDetails } from '@/test/fixtures';
import { creationOutcome, creationProgressOf, share } from './creation-progress';

describe('creation progress (spec §3)', () => {
  it('reads the details as the document’s CreationProgress, and nothing done before the job reports', () => {
    const mapping = [{ name: 'A', campaignId: '7', adGroups: [{ name: 'Exact', adGroupId: '9' }] }];
    expect(creationProgressOf(creationDetails({ groupsCreated: 2, groupsTotal: 5, campaignsMapping: mapping }))).toMatchObject({
      groupsCreated: 2,
      groupsTotal: 5,
      campaignsCreated: 0,
      campaignsMapping: mapping,
      rejected: [],
    });
    expect(creationProgressOf({})).toMatchObject({ groupsCreated: 0, groupsTotal: 0, finish: false, errorsMethod: [], campaignsMapping: [], rejected: [] });
    // Details of another kind (a collection's) are no creation's progress.
    expect(creationProgressOf({ candidates: 12 })).toMatchObject({ groupsTotal: 0, campaignsMapping: [] });
    expect(share(1, 3)).toBe(33);
    expect(share(1, 0)).toBe(0);
  });

  it('tells running, done and failed apart; the failure takes the server’s message', () => {
    const rejected = { campaign: 'Brand US', adGroup: 'Exact', text: 'x', matchType: 'EXACT', message: 'no' };
    expect(creationOutcome({ finish: false, error: null, details: {} }).kind).toBe('running');
    expect(creationOutcome({ finish: false, error: null, details: creationDetails({ groupsCreated: 1, groupsTotal: 4 }) }).kind).toBe('running');
    expect(creationOutcome({ finish: true, error: null, details: creationDetails({ finish: true, rejected: [rejected] }) })).toMatchObject({ kind: 'done' });
    expect(
      creationOutcome({ finish: true, error: null, details: creationDetails({ errorsMethod: [{ method: 'createAdGroup', name: 'Exact', message: 'Apple says no' }] }) }),
    ).toMatchObject({ kind: 'failed', message: 'Apple says no' });
    expect(creationOutcome({ finish: true, error: 'Task failed', details: {} })).toMatchObject({ kind: 'failed', message: 'Task failed' });
    expect(creationOutcome({ finish: true, error: null, details: creationDetails({ errorsMethod: [{ method: 'discovery', name: 'Discovery', message: '' }] }) })).toMatchObject({
      kind: 'failed',
      message: null,
    });
  });
});
