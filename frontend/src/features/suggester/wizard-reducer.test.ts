import { makeTask } from '@/test/fixtures';
import type { Keyword } from './api/types';
import { DEFAULT_PATTERN } from './campaign-plan';
import type { SavedEntry } from './saved';
import { EMPTY_FORM } from './search-form';
import { defaultSegments, type Classifier } from './segmentation';
import { wizardReducer, type WizardAction } from './wizard-reducer';
import { initialState, type WizardState } from './wizard-state';

const scope = { accountId: 'a1', orgId: '42' };
const app = { adamId: '100', name: 'Snap Photo', developer: 'Snap Inc', icon: null, countries: null };
const keyword = (name: string, required = false): Keyword => ({ name, impressions: 0, required, sources: [], bidOn: [], negatedIn: [] });
const noTerms: Classifier = { brand: [], competitor: [] };
const run = (state: WizardState, ...actions: WizardAction[]) => actions.reduce(wizardReducer, state);

const entry: SavedEntry = {
  accountId: 'a1',
  orgId: '42',
  app,
  country: 'US',
  searchParameters: { suggestionType: 'keywords', requiredKeywords: ['photo'], negativeKeywords: ['free'] },
  settings: null,
  competitors: [],
  selected: [{ name: 'photo', impressions: 10 }],
  removed: [{ name: 'camera', impressions: 3 }],
  keywordGroups: null,
  campaigns: { pattern: '{app}', edits: {} },
  savedAt: '2026-11-27T10:00:00Z',
};

/** Step 2 with a finished collection of `names`, the first of them selected. */
const onStep2 = (...names: string[]): WizardState => ({
  ...initialState(scope, { ...EMPTY_FORM, app, country: 'US' }),
  step: 2,
  items: names.map((n) => keyword(n)),
  resultId: 't1',
  selected: names.slice(0, 1).map((name) => ({ name, impressions: 0 })),
});

describe('the suggester wizard reducer', () => {
  it('restores the saved entry, resuming a running collection on step 2', () => {
    const state = wizardReducer(initialState(null), {
      type: 'restored',
      saved: { entry, loader: { taskId: 't9', adamId: '100', country: 'US', startedAt: entry.savedAt }, lastItem: null, stale: false },
      scope: { accountId: 'a1', orgId: '7' },
      defaults: undefined,
    });
    expect(state.scope).toEqual({ accountId: 'a1', orgId: '42' });
    expect(state.step).toBe(2);
    expect(state.collecting).toEqual({ taskId: 't9', task: null, resumed: true });
    expect(state.form.requiredText).toBe('photo');
    expect(state.selected).toEqual(entry.selected);
    expect(state.names).toEqual({ pattern: '{app}', edits: {} });
  });

  it('restores the step reached with its result to load, and on step 5 the creation under way', () => {
    const state = wizardReducer(initialState(null), {
      type: 'restored',
      saved: { entry, loader: null, lastItem: { step: 5, taskId: 't1', creating: 'c1', savedAt: entry.savedAt }, stale: false },
      scope,
      defaults: undefined,
    });
    expect(state).toMatchObject({ step: 5, resultId: 't1', loadingResult: true, creating: { taskId: 'c1', failed: false } });
  });

  it('starts a collection on step 2 with nothing of the last one left', () => {
    const before = { ...onStep2('photo'), created: { accountId: 'a1', orgId: '42', names: ['x'] } };
    const starting = wizardReducer(before, { type: 'starting', scope });
    expect(starting).toMatchObject({ starting: true, collectionError: null });
    const started = wizardReducer(starting, { type: 'started', scope, taskId: 't2' });
    expect(started).toMatchObject({ step: 2, starting: false, items: null, resultId: null, selected: [], removed: [], created: null });
    expect(started.collecting).toEqual({ taskId: 't2', task: null, resumed: false });
    expect(started.names).toEqual({ pattern: DEFAULT_PATTERN, edits: {} });
    expect(wizardReducer(starting, { type: 'startFailed', error: 'No' })).toMatchObject({ starting: false, collectionError: 'No' });
  });

  it('keeps the polled task of the running collection only', () => {
    const state = run(initialState(scope), { type: 'started', scope, taskId: 't2' });
    const task = makeTask({ id: 't2' });
    expect(wizardReducer(state, { type: 'polled', taskId: 't2', task }).collecting?.task).toBe(task);
    expect(wizardReducer(state, { type: 'polled', taskId: 'other', task })).toBe(state);
  });

  it('shows a finished collection after its phases, with the required keywords selected', () => {
    const state = run(initialState(scope), { type: 'started', scope, taskId: 't2' });
    const task = makeTask({ id: 't2' });
    const collected = wizardReducer(state, { type: 'collected', taskId: 't2', items: [keyword('photo', true), keyword('camera')], task });
    expect(collected.items).toBeNull();
    expect(collected.collecting?.task).toBe(task);
    const shown = wizardReducer(collected, { type: 'collectionShown' });
    expect(shown).toMatchObject({ step: 2, collecting: null, resultId: 't2', selected: [{ name: 'photo', impressions: 0 }] });
    expect(shown.items).toHaveLength(2);
  });

  it('loads a saved result at once, keeping the saved selection less what was removed', () => {
    const state = { ...initialState(scope), step: 3 as const, loadingResult: true, resultId: 't1', selected: [{ name: 'camera', impressions: 1 }, { name: 'gone', impressions: 1 }] };
    const next = wizardReducer(state, { type: 'collected', taskId: 't1', items: [keyword('photo', true), keyword('camera')], task: makeTask() });
    expect(next).toMatchObject({ step: 3, loadingResult: false, selected: [{ name: 'camera', impressions: 1 }] });
  });

  it('goes back to step 1 when the collection fails, is stopped or is discarded', () => {
    const state = onStep2('photo');
    expect(wizardReducer(state, { type: 'collectionEnded', error: 'Something went wrong' })).toMatchObject({ step: 1, items: null, collectionError: 'Something went wrong' });
    expect(wizardReducer(state, { type: 'stopped' })).toMatchObject({ step: 1, items: null, selected: [], keywordGroups: null });
    expect(wizardReducer({ ...state, loadingResult: true }, { type: 'discarded' })).toMatchObject({ step: 1, loadingResult: false, selected: [] });
  });

  it('changes the form and clears the collection error', () => {
    const state = { ...initialState(scope), collectionError: 'No' };
    const next = wizardReducer(state, { type: 'formChanged', change: { country: 'GB' } });
    expect(next.form.country).toBe('GB');
    expect(next.collectionError).toBeNull();
  });

  it('fills the estimates into the selection, the same arrays when nothing changes', () => {
    const state = onStep2('photo');
    const next = wizardReducer(state, { type: 'estimated', estimates: new Map([['photo', 40]]) });
    expect(next.selected).toEqual([{ name: 'photo', impressions: 40 }]);
    const same = wizardReducer(state, { type: 'estimated', estimates: new Map() });
    expect(same.selected).toBe(state.selected);
    expect(same.removed).toBe(state.removed);
  });

  it('makes, renames, moves keywords to and removes a manual segment', () => {
    const state = { ...onStep2('photo', 'camera'), step: 3 as const, selected: [{ name: 'photo', impressions: 0, group: 'generic' }] };
    const added = wizardReducer(state, { type: 'segmentAdded', name: ' Mine ', names: new Set(['photo']) });
    const manual = added.keywordGroups?.segments.find((s) => s.kind === 'manual');
    expect(manual).toMatchObject({ name: 'Mine', match: 'EXACT' });
    expect(added.keywordGroups?.manualSegmentation).toBe(true);
    expect(added.selected[0]?.group).toBe(manual?.id);
    const renamed = wizardReducer(added, { type: 'segmentRenamed', id: manual?.id ?? '', name: 'Ours ' });
    expect(renamed.keywordGroups?.segments.find((s) => s.id === manual?.id)?.name).toBe('Ours');
    const matched = wizardReducer(renamed, { type: 'matchSet', id: manual?.id ?? '', match: 'BOTH' });
    expect(matched.keywordGroups?.segments.find((s) => s.id === manual?.id)?.match).toBe('BOTH');
    const removed = wizardReducer(matched, { type: 'segmentRemoved', id: manual?.id ?? '', classifier: noTerms });
    expect(removed.keywordGroups?.segments.some((s) => s.kind === 'manual')).toBe(false);
    expect(removed.selected[0]?.group).toBe('generic');
  });

  it('resets the segments to the automatic split, keeping the built-in ones’ match types', () => {
    const state = { ...onStep2('photo'), step: 3 as const, selected: [{ name: 'photo', impressions: 0, group: 'x' }] };
    const custom = run(state, { type: 'segmentAdded', name: 'x', names: new Set() }, { type: 'matchSet', id: 'generic', match: 'BROAD' });
    const reset = wizardReducer(custom, { type: 'segmentsReset', classifier: noTerms });
    expect(reset.keywordGroups?.manualSegmentation).toBe(false);
    expect(reset.keywordGroups?.segments.map((s) => s.id)).toEqual(defaultSegments().map((s) => s.id));
    expect(reset.keywordGroups?.segments.find((s) => s.id === 'generic')?.match).toBe('BROAD');
    expect(reset.selected[0]?.group).toBe('generic');
  });

  it('keeps a typed campaign name unless it equals the pattern’s', () => {
    const state = run(onStep2('photo'), { type: 'patternSet', pattern: '{app}' }, { type: 'nameSet', key: 'k', name: 'Mine', patternName: 'Snap Photo' });
    expect(state.names).toEqual({ pattern: '{app}', edits: { k: 'Mine' } });
    expect(wizardReducer(state, { type: 'nameSet', key: 'k', name: 'Snap Photo', patternName: 'Snap Photo' }).names.edits).toEqual({});
    expect(wizardReducer(state, { type: 'namesReset' }).names).toEqual({ pattern: DEFAULT_PATTERN, edits: {} });
  });

  it('starts again after a creation that ended well, with the campaigns made', () => {
    const state = run({ ...onStep2('photo'), step: 5 }, { type: 'creationStarted', taskId: 'c1' });
    expect(state.creating).toEqual({ taskId: 'c1', failed: false });
    expect(wizardReducer(state, { type: 'creationFailed' }).creating).toEqual({ taskId: 'c1', failed: true });
    const created = wizardReducer(state, { type: 'created', created: { accountId: 'a1', orgId: '42', names: ['A'] }, defaults: undefined });
    expect(created).toEqual({ ...initialState(scope), created: { accountId: 'a1', orgId: '42', names: ['A'] } });
    expect(wizardReducer(created, { type: 'createdDismissed' }).created).toBeNull();
    expect(wizardReducer(state, { type: 'creationDismissed' }).creating).toBeNull();
  });

  it('moves the scope within the account and resets to the defaults outside it', () => {
    const state = onStep2('photo');
    expect(wizardReducer(state, { type: 'scopeMoved', scope: { accountId: 'a1', orgId: '7' } }).scope).toEqual({ accountId: 'a1', orgId: '7' });
    expect(wizardReducer(state, { type: 'reset', scope: null, defaults: undefined })).toEqual(initialState(null));
  });
});
