/**
 * The suggester wizard's state and what moves it (spec §4 Suggester): the step-1 form, the
 * collection (start, poll every 1000 ms, stop), the keywords collected and the selection,
 * and the place saved per user in options (`suggester-entry`, `suggester-loader`,
 * `suggester-last-item`, 24 h), read once when the screen opens so a reload or another
 * browser resumes there, a running collection included. The collection answers no
 * impressions: the estimates of a result (`getEstimatedImpressions`) are asked once it is
 * shown and filled into its keywords and into the selection (which is saved with them). Going back from step 2 stops the
 * collection and clears the saved place; a campaign group outside the saved account resets
 * everything.
 */
import { useDebouncedValue } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useActiveAccount } from '@/features/accounts';
import { useFrontOptions, useSaveFrontOptions, type FrontOptions } from '@/features/options';
import { taskKeys, type Task } from '@/features/tasks';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { showSnackbar } from '@/lib/notifications';
import { DEFAULT_PATTERN, MAX_CAMPAIGNS, nameKey, nameOf, nameProblems, planCampaigns, type CreateBody, type NameEdits } from '../campaign-plan';
import { pollCollection, startCollection, stopCollection } from '../api/collect';
import { createCampaigns, useCampaignsExist } from '../api/creation';
import { estimateOf, useEstimatedImpressions, type Estimates } from '../api/estimates';
import { useSearchDefaults } from '../api/search-info';
import type { AppRef, Keyword, Scope, SearchDefaults, SearchPayload } from '../api/types';
import { keywordListText, parseKeywordList } from '@/lib/keywords';
import { pollUntilDone, type PollOutcome } from '../polling';
import { CLEARED, ENTRY_KEY, LAST_ITEM_KEY, LOADER_KEY, readSaved, type PickedKeyword, type SavedEntry, type SavedState } from '../saved';
import {
  assignSegments,
  classifierOf,
  defaultSegments,
  groupsFor,
  moveKeywords,
  newSegmentId,
  removeSegment,
  type KeywordGroups,
  type MatchChoice,
  type Segment,
} from '../segmentation';
import { clampStep, nextStep, previousStep, searchBlocker, selectionBlocker, canAdvanceFrom, timing, type Step, type SuggestionType } from '../wizard';

/** The advanced switches of the search payload. */
export interface SearchSettings {
  excludedWordsByPopularities: number;
  withAggregation: boolean;
  withoutDescription: boolean;
  withoutApps: boolean;
  withoutShuffle: boolean;
}

export interface SearchForm {
  app: AppRef | null;
  country: string | null;
  suggestionType: SuggestionType;
  /** The fields' text as typed (one keyword per line). */
  requiredText: string;
  negativeText: string;
  competitorIds: string[];
  settings: SearchSettings;
}

export const DEFAULT_SETTINGS: SearchSettings = {
  excludedWordsByPopularities: 1,
  withAggregation: true,
  withoutDescription: false,
  withoutApps: false,
  withoutShuffle: false,
};

const EMPTY_FORM: SearchForm = {
  app: null,
  country: null,
  suggestionType: 'app',
  requiredText: '',
  negativeText: '',
  competitorIds: [],
  settings: DEFAULT_SETTINGS,
};

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
  /** Step 3's segments (spec §3 keyword groups); each selected keyword's `group` is one of them. */
  keywordGroups: KeywordGroups | null;
  /** Step 4's name pattern and the names typed over it (spec §3 campaigns to create). */
  names: { pattern: string; edits: NameEdits };
  /** The creation started from step 5: its task, polled every 1000 ms, and whether it failed. */
  creating: { taskId: string; failed: boolean } | null;
  /** The last creation that finished without errors: the campaign group its campaigns are in. */
  created: { accountId: string; orgId: string | null; names: string[] } | null;
}

const initialState = (scope: Scope | null, form: SearchForm = EMPTY_FORM): WizardState => ({
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

/** The form the user's defaults give (`GET /api/keyword/default`). */
export function formFromDefaults(defaults: SearchDefaults | undefined): SearchForm {
  if (!defaults) return EMPTY_FORM;
  return {
    ...EMPTY_FORM,
    suggestionType: defaults.suggestionType,
    negativeText: keywordListText(defaults.negativeKeywords),
    settings: {
      excludedWordsByPopularities: defaults.excludedWordsByPopularities,
      withAggregation: defaults.withAggregation,
      withoutDescription: defaults.withoutDescription,
      withoutApps: defaults.withoutApps,
      withoutShuffle: defaults.withoutShuffle,
    },
  };
}

/** The form a saved entry holds. */
function formFromEntry(entry: SavedEntry): SearchForm {
  return {
    app: entry.app,
    country: entry.country,
    suggestionType: entry.searchParameters.suggestionType,
    requiredText: keywordListText(entry.searchParameters.requiredKeywords),
    negativeText: keywordListText(entry.searchParameters.negativeKeywords),
    competitorIds: entry.competitors,
    settings: entry.settings ?? DEFAULT_SETTINGS,
  };
}

/** The search payload (first form) of a valid form. */
export function payloadOf(form: SearchForm): SearchPayload {
  return {
    // A valid form's country is one of the server's (`country/allWithCodes`), which the body's enum lists.
    country: (form.country ?? '') as SearchPayload['country'],
    suggestionType: form.suggestionType,
    words: parseKeywordList(form.requiredText),
    excludedWords: parseKeywordList(form.negativeText),
    excludedWordsByPopularities: form.settings.excludedWordsByPopularities,
    // Only competitor mode sends its choice; app mode explores the app's saved competitors.
    competitors: form.suggestionType === 'competitors' ? form.competitorIds : [],
    withoutDescription: form.settings.withoutDescription,
    withAggregation: form.settings.withAggregation,
    withoutApps: form.settings.withoutApps,
    onlyPopularity: false,
    withoutShuffle: form.settings.withoutShuffle,
  };
}

/** The saved entry of a state (spec §3 Suggester state). */
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

/** The keywords with their estimated impressions (0 where the answer has none). */
export function withEstimates(items: readonly Keyword[], estimates: Estimates): Keyword[] {
  return items.map((k) => ({ ...k, impressions: estimateOf(estimates, k.name) }));
}

/** Picked keywords with their estimates; the same array when none changes (so state settles). */
export function pickedWithEstimates(picked: PickedKeyword[], estimates: Estimates): PickedKeyword[] {
  if (picked.every((p) => p.impressions === estimateOf(estimates, p.name))) return picked;
  return picked.map((p) => ({ ...p, impressions: estimateOf(estimates, p.name) }));
}

export function useSuggester() {
  const active = useActiveAccount();
  const accountId = active.account?._id ?? null;
  const orgId = active.org?.orgId ?? null;
  const scope = useMemo<Scope | null>(() => (accountId ? { accountId, orgId } : null), [accountId, orgId]);
  const options = useFrontOptions();
  const defaults = useSearchDefaults();
  const save = useSaveFrontOptions();
  const queryClient = useQueryClient();
  // The background-tasks popover lists the collection too: it hears of each start and end.
  const refreshTasks = useCallback(() => void queryClient.invalidateQueries({ queryKey: taskKeys.all }), [queryClient]);
  const saveRef = useRef(save.mutate);
  useEffect(() => {
    saveRef.current = save.mutate;
  });

  const [state, setState] = useState<WizardState>(() => initialState(null));
  const stateRef = useRef(state);
  useEffect(() => {
    stateRef.current = state;
  });
  const [hydrated, setHydrated] = useState(false);
  const [backOpen, setBackOpen] = useState(false);
  const [stopOpen, setStopOpen] = useState(false);
  const [stopping, setStopping] = useState(false);

  const persist = useCallback((values: FrontOptions) => {
    saveRef.current(values, { onError: (error) => showSnackbar(errorMessage(error), 'danger') });
  }, []);

  // Read the saved place once, when the options, the defaults and the account are known.
  const ready = !active.isLoading && (options.isSuccess || options.isError) && (defaults.isSuccess || defaults.isError);
  useEffect(() => {
    if (hydrated || !ready) return;
    const saved: SavedState = readSaved(options.data, accountId, Date.now());
    if (saved.stale) {
      const clear: FrontOptions = {};
      if (!saved.entry) Object.assign(clear, CLEARED);
      else {
        if (!saved.loader) clear[LOADER_KEY] = null;
        if (!saved.lastItem) clear[LAST_ITEM_KEY] = null;
      }
      persist(clear);
    }
    const { entry, loader, lastItem } = saved;
    const base = initialState(scope, entry ? formFromEntry(entry) : formFromDefaults(defaults.data));
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
    setState(base);
    setHydrated(true);
  }, [hydrated, ready, options.data, defaults.data, accountId, scope, persist]);

  // A campaign group outside the account the state belongs to resets it (spec §4).
  useEffect(() => {
    if (!hydrated) return;
    const current = stateRef.current;
    if (current.scope?.accountId === accountId) {
      if (current.scope.orgId !== orgId && current.step === 1 && !current.collecting) setState((s) => ({ ...s, scope }));
      return;
    }
    const touched = current.scope !== null && (current.step > 1 || current.collecting !== null || current.form.app !== null);
    setState(initialState(scope, formFromDefaults(defaults.data)));
    if (touched) persist(CLEARED);
  }, [hydrated, accountId, orgId, scope, defaults.data, persist]);

  const finish = useCallback(
    (outcome: PollOutcome, taskId: string) => {
      const now = new Date();
      refreshTasks();
      if (outcome.kind === 'done') {
        const current = stateRef.current;
        const selected = initialSelection(outcome.items, current.selected);
        const removedNames = new Set(current.removed.map((r) => r.name));
        const next: WizardState = {
          ...current,
          collecting: null,
          loadingResult: false,
          items: outcome.items,
          resultId: taskId,
          selected: selected.filter((p) => !removedNames.has(p.name)),
          step: current.step < 2 ? 2 : current.step,
        };
        persist({ [ENTRY_KEY]: entryOf(next, now), [LOADER_KEY]: null, [LAST_ITEM_KEY]: { step: next.step, taskId, savedAt: now.toISOString() } });
        // A collection that ran here first shows the phases its polls missed, ending with the
        // task's last message; the collecting panel then calls `completeCollection`.
        if (current.collecting) setState({ ...current, collecting: { ...current.collecting, task: outcome.task, ended: next } });
        else setState(next);
        return;
      }
      // Failed or stopped elsewhere: back to step 1, the failure kept as the collection error.
      setState((s) => ({
        ...s,
        step: 1,
        collecting: null,
        loadingResult: false,
        items: null,
        resultId: null,
        collectionError: outcome.kind === 'failed' ? outcome.error : null,
      }));
      persist({ [LOADER_KEY]: null, [LAST_ITEM_KEY]: null });
      if (outcome.kind === 'stopped') showSnackbar(t('suggester.stopped'), 'info');
    },
    [persist, refreshTasks],
  );

  /**
   * The finished collection's phases were shown: on to its keywords (read from the state
   * itself: the panel calls this from its effect, before this hook's ref follows the state).
   */
  const completeCollection = useCallback(() => {
    setState((s) => s.collecting?.ended ?? s);
  }, []);

  // Poll the running collection, or the saved result after a reload.
  const pollId = state.collecting?.taskId ?? (state.loadingResult ? state.resultId : null);
  const immediate = state.collecting ? state.collecting.resumed : true;
  useEffect(() => {
    const current = stateRef.current;
    const adamId = current.form.app?.adamId;
    const pollScope = current.scope;
    if (!pollId || !adamId || !pollScope) return undefined;
    const controller = new AbortController();
    pollUntilDone({
      poll: (signal) => pollCollection(adamId, pollScope, pollId, { signal }),
      signal: controller.signal,
      immediate,
      onTask: (task) => setState((s) => (s.collecting?.taskId === pollId ? { ...s, collecting: { ...s.collecting, task } } : s)),
    }).then(
      (outcome) => finish(outcome, pollId),
      () => undefined,
    );
    return () => controller.abort(new DOMException('Polling ended', 'AbortError'));
    // `immediate` is read when polling begins; it changes only with the task.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pollId, finish]);

  const setForm = useCallback((change: Partial<SearchForm>) => {
    setState((s) => ({ ...s, form: { ...s.form, ...change }, collectionError: null }));
  }, []);

  const requiredKeywords = useMemo(() => parseKeywordList(state.form.requiredText), [state.form.requiredText]);
  const negativeKeywords = useMemo(() => parseKeywordList(state.form.negativeText), [state.form.negativeText]);
  const start = useCallback(async () => {
    const current = stateRef.current;
    const app = current.form.app;
    if (!app || !scope || current.starting) return;
    setState((s) => ({ ...s, starting: true, collectionError: null, scope }));
    try {
      const taskId = await startCollection(app.adamId, scope, payloadOf(current.form));
      const now = new Date();
      const next: WizardState = {
        ...stateRef.current,
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
      setState(next);
      refreshTasks();
      persist({
        [ENTRY_KEY]: entryOf(next, now),
        [LOADER_KEY]: { taskId, adamId: app.adamId, country: current.form.country, startedAt: now.toISOString() },
        [LAST_ITEM_KEY]: { step: 2, taskId: null, savedAt: now.toISOString() },
      });
    } catch (error) {
      setState((s) => ({ ...s, starting: false, collectionError: errorMessage(error) }));
    }
  }, [scope, persist, refreshTasks]);

  /** Stops the running collection (after the confirmation); back to step 1. */
  const stop = useCallback(async () => {
    const taskId = stateRef.current.collecting?.taskId;
    if (!taskId) return;
    setStopping(true);
    try {
      await stopCollection(taskId);
      refreshTasks();
      setState((s) => ({ ...s, step: 1, collecting: null, items: null, resultId: null, selected: [], removed: [], keywordGroups: null }));
      persist({ [LOADER_KEY]: null, [LAST_ITEM_KEY]: null });
      setStopOpen(false);
    } catch (error) {
      showSnackbar(errorMessage(error), 'danger');
    } finally {
      setStopping(false);
    }
  }, [persist, refreshTasks]);

  /** Back from step 2 (after the confirmation): stops the collection, discards the list, clears the saved place. */
  const confirmBack = useCallback(async () => {
    const current = stateRef.current;
    const taskId = current.collecting?.taskId;
    setState((s) => ({ ...s, step: 1, collecting: null, loadingResult: false, items: null, resultId: null, selected: [], removed: [], keywordGroups: null }));
    setBackOpen(false);
    persist(CLEARED);
    if (taskId) await stopCollection(taskId).then(refreshTasks, () => undefined);
  }, [persist, refreshTasks]);

  const back = useCallback(() => {
    const { step } = stateRef.current;
    if (step === 2) {
      setBackOpen(true);
      return;
    }
    if (step < 2) return;
    const now = new Date();
    const to = previousStep(step);
    setState((s) => ({ ...s, step: to }));
    persist({ [LAST_ITEM_KEY]: { step: to, taskId: stateRef.current.resultId, savedAt: now.toISOString() } });
  }, [persist]);

  const advance = useCallback(() => {
    const current = stateRef.current;
    if (current.step === 1) {
      void start();
      return;
    }
    if (!canAdvanceFrom(current.step) || current.selected.length === 0) return;
    const now = new Date();
    const to = nextStep(current.step);
    const next = { ...current, step: to };
    setState(next);
    persist({ [ENTRY_KEY]: entryOf(next, now), [LAST_ITEM_KEY]: { step: to, taskId: current.resultId, savedAt: now.toISOString() } });
  }, [start, persist]);

  // Selection changes are saved (debounced) so a reload keeps them.
  const selectionSaved = useRef<string>('');
  useEffect(() => {
    if (!hydrated || state.step !== 2 || !state.items) return undefined;
    const key = JSON.stringify([state.selected, state.removed]);
    if (selectionSaved.current === '') {
      selectionSaved.current = key;
      return undefined;
    }
    if (key === selectionSaved.current) return undefined;
    const timer = setTimeout(() => {
      selectionSaved.current = key;
      persist({ [ENTRY_KEY]: entryOf(stateRef.current, new Date()) });
    }, timing.saveDebounceMs);
    return () => clearTimeout(timer);
  }, [hydrated, state.step, state.items, state.selected, state.removed, persist]);

  // The result's estimated impressions: asked once per result, then filled into the list
  // (sorting and the counts read the filled values) and into the selection. Until they come
  // the list shows no figure; when they fail it keeps the collection's zeros.
  const names = useMemo(() => state.items?.map((k) => k.name) ?? null, [state.items]);
  const estimates = useEstimatedImpressions(state.scope, state.form.country, state.resultId, names);
  const keywords = useMemo(() => (state.items && estimates.data ? withEstimates(state.items, estimates.data) : state.items), [state.items, estimates.data]);
  const estimating = names !== null && names.length > 0 && estimates.isLoading;
  useEffect(() => {
    const map = estimates.data;
    if (!map || !state.items) return;
    const selected = pickedWithEstimates(state.selected, map);
    const removed = pickedWithEstimates(state.removed, map);
    if (selected === state.selected && removed === state.removed) return;
    const next = { ...state, selected, removed };
    setState((s) => ({ ...s, selected: pickedWithEstimates(s.selected, map), removed: pickedWithEstimates(s.removed, map) }));
    // Step 2 saves selection changes itself (debounced); elsewhere (a result resumed on
    // step 3) the saved selection takes its estimates now.
    if (hydrated && state.step !== 2) persist({ [ENTRY_KEY]: entryOf(next, new Date()) });
  }, [estimates.data, state, hydrated, persist]);

  // Step 3: the segments, and every selected keyword in one (spec §3 keyword groups).
  const classifier = useMemo(() => classifierOf(state.form.app, state.items), [state.form.app, state.items]);
  const groups = useMemo(() => groupsFor(state.keywordGroups, state.resultId), [state.keywordGroups, state.resultId]);
  useEffect(() => {
    if (!hydrated || state.step < 3 || !state.items) return;
    const selected = assignSegments(state.selected, groups.segments, classifier);
    if (selected === state.selected && groups === state.keywordGroups) return;
    setState((s) => ({ ...s, keywordGroups: groups, selected }));
  }, [hydrated, state.step, state.items, state.selected, state.keywordGroups, groups, classifier]);

  const updateGroups = useCallback((change: (groups: KeywordGroups, selected: PickedKeyword[]) => { groups: KeywordGroups; selected: PickedKeyword[] }) => {
    setState((s) => {
      const current = groupsFor(s.keywordGroups, s.resultId);
      const next = change(current, s.selected);
      return { ...s, keywordGroups: next.groups, selected: next.selected };
    });
  }, []);

  const segmentation = useMemo(
    () => ({
      /** Moves the keywords `names` to segment `to`. */
      move: (names: ReadonlySet<string>, to: string) =>
        updateGroups((g, selected) => ({ groups: { ...g, manualSegmentation: true }, selected: moveKeywords(selected, names, to) })),
      /** Makes a manual segment named `name`, moving `names` into it. */
      add: (name: string, names: ReadonlySet<string> = new Set()) =>
        updateGroups((g, selected) => {
          const id = newSegmentId(g.segments);
          const segment: Segment = { id, kind: 'manual', name: name.trim(), match: 'EXACT' };
          return { groups: { ...g, segments: [...g.segments, segment], manualSegmentation: true }, selected: moveKeywords(selected, names, id) };
        }),
      rename: (id: string, name: string) =>
        updateGroups((g, selected) => ({ groups: { ...g, segments: g.segments.map((x) => (x.id === id && x.kind === 'manual' ? { ...x, name: name.trim() } : x)) }, selected })),
      remove: (id: string) => updateGroups((g, selected) => removeSegment(g, selected, id, classifier)),
      setMatch: (id: string, match: MatchChoice) =>
        updateGroups((g, selected) => ({ groups: { ...g, segments: g.segments.map((x) => (x.id === id ? { ...x, match } : x)) }, selected })),
      /** Back to the automatic split: the manual segments go, every keyword is classified again. */
      reset: () =>
        updateGroups((g, selected) => {
          const segments = defaultSegments().map((d) => ({ ...d, match: g.segments.find((x) => x.id === d.id)?.match ?? d.match }));
          return { groups: { ...g, segments, manualSegmentation: false }, selected: assignSegments(selected, segments, classifier, true) };
        }),
    }),
    [updateGroups, classifier],
  );

  // Step 4: one campaign per segment holding keywords, named from the pattern or as typed.
  const segmentLabel = useCallback((segment: Segment) => (segment.kind === 'manual' ? segment.name : t(`suggester.segment.${segment.kind}`)), []);
  const plan = useMemo(
    () =>
      planCampaigns(state.selected, groups.segments, state.names.pattern, {
        app: state.form.app?.name ?? '',
        country: state.form.country ?? '',
        segmentLabel,
        matchLabel: (m) => t(`suggester.match.${m}`),
      }),
    [state.selected, groups.segments, state.names.pattern, state.form.app, state.form.country, segmentLabel],
  );
  const campaignNames = useMemo(() => plan.map((c) => nameOf(c, state.names.edits)), [plan, state.names.edits]);
  // The campaign group the campaigns go to: the one the state was saved under, else the
  // active one, else the account's first.
  const { accounts } = active;
  const creationOrg = useMemo(() => {
    const base = state.scope ?? scope;
    const account = base ? accounts.find((a) => a._id === base.accountId) : undefined;
    if (!base || !account) return null;
    const wanted = base.orgId ?? orgId;
    return account.acls.find((o) => o.orgId === wanted) ?? account.acls[0] ?? null;
  }, [state.scope, scope, orgId, accounts]);
  const creationScope = useMemo<Scope | null>(() => {
    const base = state.scope ?? scope;
    return base ? { accountId: base.accountId, orgId: creationOrg?.orgId ?? base.orgId ?? orgId } : null;
  }, [state.scope, scope, orgId, creationOrg]);
  const [askedNames] = useDebouncedValue(state.step >= 4 ? campaignNames : [], timing.namesDebounceMs);
  const exists = useCampaignsExist(creationScope, askedNames);
  const existing = useMemo(() => new Set((exists.data ?? []).map(nameKey)), [exists.data]);
  const problems = useMemo(() => nameProblems(campaignNames, existing), [campaignNames, existing]);

  const naming = useMemo(
    () => ({
      setPattern: (pattern: string) => setState((s) => ({ ...s, names: { ...s.names, pattern } })),
      /** The name of campaign `key` as typed (the pattern's again when it equals it). */
      setName: (key: string, name: string, patternName: string) =>
        setState((s) => {
          const edits = { ...s.names.edits };
          if (name === patternName) delete edits[key];
          else edits[key] = name;
          return { ...s, names: { ...s.names, edits } };
        }),
      reset: () => setState((s) => ({ ...s, names: { pattern: DEFAULT_PATTERN, edits: {} } })),
    }),
    [],
  );

  // Steps 3 and on: segment, name and pattern changes are saved (debounced) like the selection.
  const planSaved = useRef<string>('');
  useEffect(() => {
    if (!hydrated || state.step < 3 || !state.items || state.creating) return undefined;
    const key = JSON.stringify([state.selected, state.keywordGroups, state.names]);
    if (planSaved.current === '') {
      planSaved.current = key;
      return undefined;
    }
    if (key === planSaved.current) return undefined;
    const timer = setTimeout(() => {
      planSaved.current = key;
      persist({ [ENTRY_KEY]: entryOf(stateRef.current, new Date()) });
    }, timing.saveDebounceMs);
    return () => clearTimeout(timer);
  }, [hydrated, state.step, state.items, state.selected, state.keywordGroups, state.names, state.creating, persist]);

  const blocker =
    state.step === 1
      ? searchBlocker({
          adamId: state.form.app?.adamId ?? null,
          country: state.form.country,
          suggestionType: state.form.suggestionType,
          requiredKeywords,
          competitorIds: state.form.competitorIds,
        })
      : selectionBlocker(state.step, {
          collecting: state.collecting !== null || state.loadingResult,
          selectedCount: state.selected.length,
          badNames: problems.some((p) => p !== null),
          // Room is kept for the discovery campaign.
          tooManyCampaigns: plan.length > MAX_CAMPAIGNS - 1,
        });

  // Step 5: the creation and its end.
  const [submitting, setSubmitting] = useState(false);
  const create = useCallback(
    async (body: CreateBody) => {
      if (!creationScope) return;
      setSubmitting(true);
      try {
        const taskId = await createCampaigns(creationScope, body);
        setState((s) => ({ ...s, creating: { taskId, failed: false } }));
        refreshTasks();
        // A reload while it runs shows its progress instead of the form (nothing is sent twice).
        const current = stateRef.current;
        persist({ [ENTRY_KEY]: entryOf(current, new Date()), [LAST_ITEM_KEY]: { step: 5, taskId: current.resultId, creating: taskId, savedAt: new Date().toISOString() } });
      } finally {
        setSubmitting(false);
      }
    },
    [creationScope, refreshTasks, persist],
  );
  /** The creation ended: on success the state resets (spec §4) and the campaigns are linked. */
  /**
   * A creation ended: failed (its report stays on step 5), or done with the campaigns the task
   * made (`made`: every one, the discovery campaign included), which the notice on step 1
   * counts and lists; the plan's names stand in when the task named none.
   */
  const endCreation = useCallback(
    (ok: boolean, made: string[] = []) => {
      refreshTasks();
      void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'suggester' && q.queryKey[0] !== 'tasks' && q.queryKey[0] !== 'options' });
      if (!ok) {
        setState((s) => (s.creating ? { ...s, creating: { ...s.creating, failed: true } } : s));
        return;
      }
      const current = stateRef.current;
      const created = { accountId: creationScope?.accountId ?? '', orgId: creationScope?.orgId ?? null, names: made.length > 0 ? made : campaignNamesRef.current };
      setState({ ...initialState(current.scope, formFromDefaults(defaults.data)), created });
      planSaved.current = '';
      selectionSaved.current = '';
      persist(CLEARED);
    },
    [creationScope, defaults.data, persist, queryClient, refreshTasks],
  );
  const campaignNamesRef = useRef(campaignNames);
  useEffect(() => {
    campaignNamesRef.current = campaignNames;
  });
  /** Leaves a failed creation's report, back to the settings. */
  const dismissCreation = useCallback(() => {
    setState((s) => ({ ...s, creating: null }));
    persist({ [LAST_ITEM_KEY]: { step: 5, taskId: stateRef.current.resultId, creating: null, savedAt: new Date().toISOString() } });
  }, [persist]);
  const dismissCreated = useCallback(() => setState((s) => ({ ...s, created: null })), []);

  const setSelection = useCallback((selected: PickedKeyword[], removed?: PickedKeyword[]) => {
    setState((s) => ({ ...s, selected, removed: removed ?? s.removed }));
  }, []);

  return {
    ready: hydrated,
    hasAccount: scope !== null,
    scope: state.scope ?? scope,
    state,
    /** The result's keywords with their estimated impressions once known (else as collected). */
    keywords,
    /** The estimates are being asked: the impressions show no figure yet. */
    estimating,
    requiredKeywords,
    negativeKeywords,
    blocker,
    /** Step 3. */
    groups,
    segmentation,
    segmentLabel,
    /** Step 4: the campaigns, their names and each name's problem. */
    plan,
    campaignNames,
    problems,
    checkingNames: exists.isFetching,
    naming,
    /** Step 5. */
    creationScope,
    currency: creationOrg?.currency ?? null,
    create,
    submitting,
    endCreation,
    completeCollection,
    creationFailed: state.creating?.failed ?? false,
    dismissCreation,
    dismissCreated,
    setForm,
    setSelection,
    advance,
    back,
    backModal: { opened: backOpen, close: () => setBackOpen(false), confirm: confirmBack },
    stopModal: { opened: stopOpen, open: () => setStopOpen(true), close: () => setStopOpen(false), confirm: stop, pending: stopping },
  };
}

export type Suggester = ReturnType<typeof useSuggester>;
