import { creationOutcome, creationProgressOf, share } from './creation-progress';

describe('creation progress (spec §3)', () => {
  it('reads the details leniently', () => {
    expect(creationProgressOf({ groupsCreated: 2, groupsTotal: 5, campaignsMapping: [{ name: 'A', campaignId: 7 }], rejected: 'bad' })).toMatchObject({
      groupsCreated: 2,
      groupsTotal: 5,
      campaignsCreated: 0,
      campaignsMapping: [{ name: 'A', campaignId: '7', adGroups: [] }],
      rejected: [],
    });
    expect(share(1, 3)).toBe(33);
    expect(share(1, 0)).toBe(0);
  });

  it('tells running, done and failed apart; the failure takes the server’s message', () => {
    expect(creationOutcome({ finish: false, error: null, details: {} }).kind).toBe('running');
    expect(creationOutcome({ finish: true, error: null, details: { rejected: [{ text: 'x', message: 'no' }] } })).toMatchObject({ kind: 'done' });
    expect(creationOutcome({ finish: true, error: null, details: { errorsMethod: [{ method: 'createAdGroup', name: 'Exact', message: 'Apple says no' }] } })).toMatchObject({ kind: 'failed', message: 'Apple says no' });
    expect(creationOutcome({ finish: true, error: 'Task failed', details: {} })).toMatchObject({ kind: 'failed', message: 'Task failed' });
    expect(creationOutcome({ finish: true, error: null, details: { errorsMethod: [{ method: 'discovery' }] } })).toMatchObject({ kind: 'failed', message: null });
  });
});
