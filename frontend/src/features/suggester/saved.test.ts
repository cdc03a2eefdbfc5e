import { CLEARED, ENTRY_KEY, LAST_ITEM_KEY, LOADER_KEY, readSaved, type SavedEntry } from './saved';

const now = Date.parse('2026-11-27T12:00:00Z');
const hoursAgo = (h: number) => new Date(now - h * 3600_000).toISOString();

const entry = (savedAt: string, accountId = 'a1'): SavedEntry => ({
  accountId,
  orgId: '42',
  app: { adamId: '100', name: 'Snap Photo', developer: 'Snap Inc', icon: null, countries: null },
  country: 'US',
  searchParameters: { suggestionType: 'app', requiredKeywords: ['photo'], negativeKeywords: [] },
  settings: null,
  competitors: [],
  selected: [{ name: 'photo', impressions: 10 }],
  removed: [],
  savedAt,
});

describe('saved suggester state (24 h, per account)', () => {
  it('reads what is younger than 24 h', () => {
    const saved = readSaved(
      {
        [ENTRY_KEY]: entry(hoursAgo(2)),
        [LOADER_KEY]: { taskId: 't1', adamId: '100', country: 'US', startedAt: hoursAgo(1) },
        [LAST_ITEM_KEY]: { step: 2, taskId: 't1', savedAt: hoursAgo(1) },
      },
      'a1',
      now,
    );
    expect(saved.entry?.app?.name).toBe('Snap Photo');
    expect(saved.loader?.taskId).toBe('t1');
    expect(saved.lastItem).toEqual({ step: 2, taskId: 't1', savedAt: hoursAgo(1) });
    expect(saved.stale).toBe(false);
  });

  it('drops an entry of 24 h or more and flags it for clearing', () => {
    const saved = readSaved({ [ENTRY_KEY]: entry(hoursAgo(24)), [LAST_ITEM_KEY]: { step: 2, taskId: 't1', savedAt: hoursAgo(1) } }, 'a1', now);
    expect(saved).toEqual({ entry: null, loader: null, lastItem: null, stale: true });
  });

  it('drops an expired loader but keeps the entry', () => {
    const saved = readSaved({ [ENTRY_KEY]: entry(hoursAgo(1)), [LOADER_KEY]: { taskId: 't1', adamId: '100', country: 'US', startedAt: hoursAgo(25) } }, 'a1', now);
    expect(saved.entry).not.toBeNull();
    expect(saved.loader).toBeNull();
    expect(saved.stale).toBe(true);
  });

  it("drops another account's state", () => {
    expect(readSaved({ [ENTRY_KEY]: entry(hoursAgo(1), 'a2') }, 'a1', now)).toMatchObject({ entry: null, stale: true });
  });

  it('clamps the saved step to 1–5', () => {
    const saved = readSaved({ [ENTRY_KEY]: entry(hoursAgo(1)), [LAST_ITEM_KEY]: { step: 9, taskId: null, savedAt: hoursAgo(1) } }, 'a1', now);
    expect(saved.lastItem?.step).toBe(5);
  });

  it('has nothing stale when nothing is saved', () => {
    expect(readSaved({}, 'a1', now)).toEqual({ entry: null, loader: null, lastItem: null, stale: false });
    expect(readSaved({ [ENTRY_KEY]: null }, 'a1', now).stale).toBe(false);
  });

  it('clears with nulls', () => {
    expect(CLEARED).toEqual({ 'suggester-entry': null, 'suggester-loader': null, 'suggester-last-item': null });
  });
});
