/**
 * Steps 1 and 2 of the suggester: the search form, the collection started from it (polled
 * every 1000 ms, or resumed after a reload, docs/product.md#4-suggester), its end (its keywords on
 * step 2, or back to step 1 with why), and the two confirmations that end it early: Stop, and going
 * back from step 2, which also discards the list and clears the saved place.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { parseKeywordList } from '@/lib/keywords';
import { showSnackbar } from '@/lib/notifications';
import { pollCollection, startCollection, stopCollection } from '../api/collect';
import { pollUntilDone, type PollOutcome } from '../polling';
import { CLEARED, ENTRY_KEY, LAST_ITEM_KEY, LOADER_KEY } from '../saved';
import { payloadOf, type SearchForm } from '../search-form';
import { collectedState, entryOf, startedState } from '../wizard-state';
import type { WizardStore } from './useWizardStore';

export function useCollection({ state, stateRef, dispatch, scope, persist, refreshTasks }: WizardStore) {
  const [backOpen, setBackOpen] = useState(false);
  const [stopOpen, setStopOpen] = useState(false);
  const [stopping, setStopping] = useState(false);

  const finish = useCallback(
    (outcome: PollOutcome, taskId: string) => {
      const now = new Date();
      refreshTasks();
      if (outcome.kind === 'done') {
        const next = collectedState(stateRef.current, outcome.items, taskId);
        persist({ [ENTRY_KEY]: entryOf(next, now), [LOADER_KEY]: null, [LAST_ITEM_KEY]: { step: next.step, taskId, savedAt: now.toISOString() } });
        dispatch({ type: 'collected', taskId, items: outcome.items, task: outcome.task });
        return;
      }
      // Failed or stopped elsewhere: back to step 1, the failure kept as the collection error.
      dispatch({ type: 'collectionEnded', error: outcome.kind === 'failed' ? outcome.error : null });
      persist({ [LOADER_KEY]: null, [LAST_ITEM_KEY]: null });
      if (outcome.kind === 'stopped') showSnackbar(t('suggester.stopped'), 'info');
    },
    [stateRef, dispatch, persist, refreshTasks],
  );

  /**
   * The finished collection's phases were shown: on to its keywords (read from the state
   * itself: the panel calls this from its effect, before the store's ref follows the state).
   */
  const completeCollection = useCallback(() => dispatch({ type: 'collectionShown' }), [dispatch]);

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
      onTask: (task) => dispatch({ type: 'polled', taskId: pollId, task }),
    }).then(
      (outcome) => finish(outcome, pollId),
      () => undefined,
    );
    return () => controller.abort(new DOMException('Polling ended', 'AbortError'));
    // `immediate` is read when polling begins; it changes only with the task.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pollId, finish]);

  const setForm = useCallback((change: Partial<SearchForm>) => dispatch({ type: 'formChanged', change }), [dispatch]);

  const requiredKeywords = useMemo(() => parseKeywordList(state.form.requiredText), [state.form.requiredText]);
  const negativeKeywords = useMemo(() => parseKeywordList(state.form.negativeText), [state.form.negativeText]);
  const start = useCallback(async () => {
    const current = stateRef.current;
    const app = current.form.app;
    if (!app || !scope || current.starting) return;
    dispatch({ type: 'starting', scope });
    try {
      const taskId = await startCollection(app.adamId, scope, payloadOf(current.form));
      const now = new Date();
      const next = startedState(stateRef.current, scope, taskId);
      dispatch({ type: 'started', scope, taskId });
      refreshTasks();
      persist({
        [ENTRY_KEY]: entryOf(next, now),
        [LOADER_KEY]: { taskId, adamId: app.adamId, country: current.form.country, startedAt: now.toISOString() },
        [LAST_ITEM_KEY]: { step: 2, taskId: null, savedAt: now.toISOString() },
      });
    } catch (error) {
      dispatch({ type: 'startFailed', error: errorMessage(error) });
    }
  }, [stateRef, dispatch, scope, persist, refreshTasks]);

  /** Stops the running collection (after the confirmation); back to step 1. */
  const stop = useCallback(async () => {
    const taskId = stateRef.current.collecting?.taskId;
    if (!taskId) return;
    setStopping(true);
    try {
      await stopCollection(taskId);
      refreshTasks();
      dispatch({ type: 'stopped' });
      persist({ [LOADER_KEY]: null, [LAST_ITEM_KEY]: null });
      setStopOpen(false);
    } catch (error) {
      showSnackbar(errorMessage(error), 'danger');
    } finally {
      setStopping(false);
    }
  }, [stateRef, dispatch, persist, refreshTasks]);

  /** Back from step 2 (after the confirmation): stops the collection, discards the list, clears the saved place. */
  const confirmBack = useCallback(async () => {
    const taskId = stateRef.current.collecting?.taskId;
    dispatch({ type: 'discarded' });
    setBackOpen(false);
    persist(CLEARED);
    if (taskId) await stopCollection(taskId).then(refreshTasks, () => undefined);
  }, [stateRef, dispatch, persist, refreshTasks]);

  const askBack = useCallback(() => setBackOpen(true), []);

  return {
    requiredKeywords,
    negativeKeywords,
    setForm,
    start,
    completeCollection,
    /** Asks before going back from step 2. */
    askBack,
    backModal: { opened: backOpen, close: () => setBackOpen(false), confirm: confirmBack },
    stopModal: { opened: stopOpen, open: () => setStopOpen(true), close: () => setStopOpen(false), confirm: stop, pending: stopping },
  };
}
