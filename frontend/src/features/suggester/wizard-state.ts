/**
 * The suggester wizard's state (docs/product.md#4-suggester) and the pure answers read from it: the
 * state a fresh start, the saved place or a finished collection gives, and the entry saved
 * per user in options (`suggester-entry`).
 */
import type { Task } from '@/features/tasks';
import { parseKeywordList } from '@/lib/keywords';
import { estimateOf, type Estimates } from './api/estimates';
import type { Keyword, Scope, SearchDefaults } from './api/types';
import { DEFAULT_PATTERN, type NameEdits } from './campaign-plan';
import type { PickedKeyword, SavedEntry, SavedState } from './saved';
import { EMPTY_FORM, formFromDefaults, formFromEntry, type SearchForm } from './search-form';
import type { KeywordGroups } from './segmentation';
import { clampStep, type Step } from './wizard';

/** A collection under way: its task id and the task as last polled. */
export interface Collecting {
  taskId: string;
  task: Task | null;
  /** Resumed from the saved loader: polled at once. */
  resumed: boolean;
  /**
   * The finished collection's next state (its keywords on step 2), applied once the screen has
   * shown the phases the polls missed (`completeCollection`).
   */
  ended?: WizardState;
}

export interface WizardState {
  step: Step;
  form: SearchForm;
  /** The account scope the form and the collection belong to. */
  scope: Scope | null;
  collecting: Collecting | null;
  starting: boolean;
  /** Why the last collection failed (shown on step 1). */
  collectionError: string | null;
  /** The keywords of the finished collection. */
  items: Keyword[] | null;
  /** The finished collection's task id (its result is kept with the task 24 h). */
  resultId: string | null;
  /** The selected keywords (step 2), carried to step 3. */
  selected: PickedKeyword[];
  /** The keywords removed from the list in step 2. */
  removed: PickedKeyword[];
  /** Loading a saved result after a reload. */
  loadingResult: boolean;
  /**
   * Step 3's segments (docs/product.md#3-suggester-state: keyword groups); each selected keyword's
   * `group` is one of them.
   */
  keywordGroups: KeywordGroups | null;
  /**
   * Step 4's name pattern and the names typed over it (docs/product.md#3-suggester-state campaigns
   * to create).
   */
  names: { pattern: string; edits: NameEdits };
  /** The creation started from step 5: its task, polled every 1000 ms, and whether it failed. */
  creating: { taskId: string; failed: boolean } | null;
  /** The last creation that finished without errors: the campaign group its campaigns are in. */
  created: { accountId: string; orgId: string | null; names: string[] } | null;
}

export const initialState = (scope: Scope | null, form: SearchForm = EMPTY_FORM): WizardState => ({
  step: 1,
  form,
  scope,
  collecting: null,
  starting: false,
  collectionError: null,
  items: null,
  resultId: null,
  selected: [],
  removed: [],
  loadingResult: false,
  keywordGroups: null,
  names: { pattern: DEFAULT_PATTERN, edits: {} },
  creating: null,
  created: null,
});

/**
 * The state the saved place gives when the screen opens: the saved entry's form and choices
 * (else the user's defaults), a running collection resumed on step 2, or the step reached
 * with its result to load (and on step 5 the creation under way).
 */
export function restoredState({ entry, loader, lastItem }: SavedState, scope: Scope | null, defaults: SearchDefaults | undefined): WizardState {
  const base = initialState(scope, entry ? formFromEntry(entry) : formFromDefaults(defaults));
  if (entry) {
    base.scope = { accountId: entry.accountId, orgId: entry.orgId };
    base.selected = entry.selected;
    base.removed = entry.removed;
    base.keywordGroups = entry.keywordGroups ?? null;
    if (entry.campaigns) base.names = entry.campaigns;
  }
  if (loader) {
    base.step = 2;
    base.collecting = { taskId: loader.taskId, task: null, resumed: true };
  } else if (lastItem && lastItem.step >= 2 && lastItem.taskId) {
    base.step = clampStep(lastItem.step);
    base.resultId = lastItem.taskId;
    base.loadingResult = true;
    if (lastItem.creating && base.step === 5) base.creating = { taskId: lastItem.creating, failed: false };
  }
  return base;
}

/** The saved entry of a state (docs/product.md#3-suggester-state). */
export function entryOf(state: WizardState, now: Date): SavedEntry | null {
  if (!state.scope) return null;
  const { form } = state;
  return {
    accountId: state.scope.accountId,
    orgId: state.scope.orgId,
    app: form.app,
    country: form.country,
    searchParameters: {
      suggestionType: form.suggestionType,
      requiredKeywords: parseKeywordList(form.requiredText),
      negativeKeywords: parseKeywordList(form.negativeText),
    },
    settings: form.settings,
    competitors: form.competitorIds,
    selected: state.selected,
    removed: state.removed,
    keywordGroups: state.keywordGroups,
    campaigns: state.names,
    savedAt: now.toISOString(),
  };
}

/** The selection after a collection: the saved one where its keywords are there, else the required keywords. */
export function initialSelection(items: readonly Keyword[], saved: readonly PickedKeyword[]): PickedKeyword[] {
  const byName = new Map(items.map((k) => [k.name, k]));
  const kept = saved.filter((p) => byName.has(p.name));
  if (kept.length > 0 || saved.length > 0) return kept;
  return items.filter((k) => k.required).map((k) => ({ name: k.name, impressions: k.impressions }));
}

/**
 * The state a finished collection gives: its keywords, the selection kept (less what was
 * removed), and step 2 unless the user was further on.
 */
export function collectedState(state: WizardState, items: Keyword[], resultId: string): WizardState {
  const selected = initialSelection(items, state.selected);
  const removedNames = new Set(state.removed.map((r) => r.name));
  return {
    ...state,
    collecting: null,
    loadingResult: false,
    items,
    resultId,
    selected: selected.filter((p) => !removedNames.has(p.name)),
    step: state.step < 2 ? 2 : state.step,
  };
}

/** The state a collection just started gives: on step 2, polling it, with nothing of the last one left. */
export function startedState(state: WizardState, scope: Scope, taskId: string): WizardState {
  return {
    ...state,
    scope,
    starting: false,
    step: 2,
    collecting: { taskId, task: null, resumed: false },
    items: null,
    resultId: null,
    selected: [],
    removed: [],
    keywordGroups: null,
    names: { pattern: DEFAULT_PATTERN, edits: {} },
    created: null,
  };
}

/** The keywords with their estimated impressions (0 where the answer has none). */
export function withEstimates(items: readonly Keyword[], estimates: Estimates): Keyword[] {
  return items.map((k) => ({ ...k, impressions: estimateOf(estimates, k.name) }));
}

/** Picked keywords with their estimates; the same array when none changes (so state settles). */
export function pickedWithEstimates(picked: PickedKeyword[], estimates: Estimates): PickedKeyword[] {
  if (picked.every((p) => p.impressions === estimateOf(estimates, p.name))) return picked;
  return picked.map((p) => ({ ...p, impressions: estimateOf(estimates, p.name) }));
}
