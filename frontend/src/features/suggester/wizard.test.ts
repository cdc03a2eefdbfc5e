import {
  actionLabel,
  backNeedsConfirm,
  canAdvanceFrom,
  clampStep,
  durationHint,
  hasBack,
  isExpired,
  nextStep,
  previousStep,
  SAVED_TTL_MS,
  searchBlocker,
  selectionBlocker,
  type SearchFormState,
} from './wizard';

const form = (overrides: Partial<SearchFormState> = {}): SearchFormState => ({
  adamId: '123',
  country: 'US',
  suggestionType: 'app',
  requiredKeywords: [],
  competitorIds: [],
  ...overrides,
});

describe('suggester steps', () => {
  it('stays within 1 to 5', () => {
    expect(clampStep(0)).toBe(1);
    expect(clampStep(-3)).toBe(1);
    expect(clampStep(6)).toBe(5);
    expect(clampStep(Number.NaN)).toBe(1);
    expect(nextStep(5)).toBe(5);
    expect(previousStep(1)).toBe(1);
    expect(nextStep(1)).toBe(2);
    expect(previousStep(3)).toBe(2);
  });

  it('names the action of each step (spec §2)', () => {
    expect(actionLabel(1)).toBe('suggester.action.start');
    expect([2, 3, 4].map((s) => actionLabel(clampStep(s)))).toEqual(['suggester.action.next', 'suggester.action.next', 'suggester.action.next']);
    expect(actionLabel(5)).toBe('suggester.action.create');
  });

  it('shows back from step 2 and confirms only there', () => {
    expect(hasBack(1)).toBe(false);
    expect(hasBack(2)).toBe(true);
    expect(hasBack(3)).toBe(true);
    expect(backNeedsConfirm(2)).toBe(true);
    expect(backNeedsConfirm(3)).toBe(false);
  });

  it('moves on only to built steps', () => {
    expect(canAdvanceFrom(1)).toBe(true);
    expect(canAdvanceFrom(2)).toBe(true);
    expect(canAdvanceFrom(3)).toBe(true);
    expect(canAdvanceFrom(4)).toBe(true);
    expect(canAdvanceFrom(5)).toBe(false);
  });
});

describe('step 1 disabled states (spec §5)', () => {
  it('needs an app and a country', () => {
    expect(searchBlocker(form({ adamId: null }))).toBe('suggester.hint.selectAppCountry');
    expect(searchBlocker(form({ country: null }))).toBe('suggester.hint.selectAppCountry');
    expect(searchBlocker(form())).toBeNull();
  });

  it('needs required keywords to explore from keywords only', () => {
    expect(searchBlocker(form({ suggestionType: 'keywords' }))).toBe('suggester.hint.addRequired');
    expect(searchBlocker(form({ suggestionType: 'keywords', requiredKeywords: ['photo'] }))).toBeNull();
  });

  it('needs a competitor in competitor mode', () => {
    expect(searchBlocker(form({ suggestionType: 'competitors' }))).toBe('suggester.hint.addCompetitor');
    expect(searchBlocker(form({ suggestionType: 'competitors', competitorIds: ['9'] }))).toBeNull();
  });

  it('asks for app and country before anything else', () => {
    expect(searchBlocker(form({ adamId: null, suggestionType: 'competitors' }))).toBe('suggester.hint.selectAppCountry');
  });
});

describe('steps 2 and 3 disabled states (spec §5)', () => {
  it('disables step 2 while collecting, then without a selection', () => {
    expect(selectionBlocker(2, { collecting: true, selectedCount: 3 })).toBe('suggester.hint.inProgress');
    expect(selectionBlocker(2, { collecting: false, selectedCount: 0 })).toBe('suggester.hint.selectKeyword');
    expect(selectionBlocker(2, { collecting: false, selectedCount: 1 })).toBeNull();
  });

  it('disables step 3 without a selection', () => {
    expect(selectionBlocker(3, { collecting: false, selectedCount: 0 })).toBe('suggester.hint.selectKeyword');
    expect(selectionBlocker(3, { collecting: false, selectedCount: 2 })).toBeNull();
  });

  it('disables steps 4 and 5 while a campaign name has a problem or there are too many campaigns', () => {
    expect(selectionBlocker(4, { collecting: false, selectedCount: 2, badNames: true })).toBe('suggester.hint.fixNames');
    expect(selectionBlocker(5, { collecting: false, selectedCount: 2, tooManyCampaigns: true })).toBe('suggester.hint.tooManyCampaigns');
    expect(selectionBlocker(3, { collecting: false, selectedCount: 2, badNames: true })).toBeNull();
    expect(selectionBlocker(4, { collecting: false, selectedCount: 0, badNames: true })).toBe('suggester.hint.selectKeyword');
  });
});

describe('time hint (spec §9)', () => {
  it("says '5-20 min' without past runs", () => {
    expect(durationHint(null)).toBe('5-20 min');
    expect(durationHint(undefined)).toBe('5-20 min');
  });

  it('rounds the duration up to minutes', () => {
    const measured = (duration: number) => ({ duration, estimated: false, calls: null });
    expect(durationHint(measured(412_000))).toBe('7 min');
    expect(durationHint(measured(60_000))).toBe('1 min');
    expect(durationHint(measured(60_001))).toBe('2 min');
    expect(durationHint(measured(1_000))).toBe('1 min');
    expect(durationHint({ duration: null, estimated: false })).toBe('5-20 min');
  });

  it('says that a first estimate is one, and what it rests on (issue 42 item 13)', () => {
    expect(durationHint({ duration: 8_600, estimated: true, calls: 43 })).toBe('about 1 min (estimated from 43 planned calls)');
    expect(durationHint({ duration: 130_000, estimated: true, calls: null })).toBe('about 3 min (estimated)');
  });
});

describe('saved state expiry (spec §9: 24 h)', () => {
  const now = Date.parse('2026-11-27T12:00:00Z');
  it('keeps what is younger than 24 h', () => {
    expect(isExpired(now - SAVED_TTL_MS + 1, now)).toBe(false);
    expect(isExpired('2026-11-27T00:00:00Z', now)).toBe(false);
  });

  it('drops what is 24 h old or more, or has no date', () => {
    expect(isExpired(now - SAVED_TTL_MS, now)).toBe(true);
    expect(isExpired('2026-11-26T11:00:00Z', now)).toBe(true);
    expect(isExpired(null, now)).toBe(true);
    expect(isExpired('not a date', now)).toBe(true);
  });
});
