/**
 * Step 2 of the suggester: the collected keywords with their estimated impressions, and the
 * selection, saved (debounced) so a reload keeps it. The collection answers no impressions:
 * the estimates of a result (`getEstimatedImpressions`) are asked once it is shown and
 * filled into its keywords and into the selection (which is saved with them).
 */
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useEstimatedImpressions } from '../api/estimates';
import { ENTRY_KEY, type PickedKeyword } from '../saved';
import { timing } from '../wizard';
import { entryOf, pickedWithEstimates, withEstimates } from '../wizard-state';
import type { WizardStore } from './useWizardStore';

export function useKeywordSelection({ state, stateRef, dispatch, hydrated, persist }: WizardStore) {
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
  }, [hydrated, state.step, state.items, state.selected, state.removed, stateRef, persist]);

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
    dispatch({ type: 'estimated', estimates: map });
    // Step 2 saves selection changes itself (debounced); elsewhere (a result resumed on
    // step 3) the saved selection takes its estimates now.
    if (hydrated && state.step !== 2) persist({ [ENTRY_KEY]: entryOf(next, new Date()) });
  }, [estimates.data, state, dispatch, hydrated, persist]);

  const setSelection = useCallback((selected: PickedKeyword[], removed?: PickedKeyword[]) => dispatch({ type: 'selected', selected, removed }), [dispatch]);

  /** The selection saved is forgotten (a new wizard starts): its next change is the first. */
  const forgetSaved = useCallback(() => {
    selectionSaved.current = '';
  }, []);

  return { keywords, estimating, setSelection, forgetSaved };
}
