/**
 * The suggester wizard's state and what moves it (docs/product.md#4-suggester), as the screen uses
 * it: the shared store (`useWizardStore`: the reducer, the account, the saved place) and one
 * hook per step, the collection of steps 1 and 2 (`useCollection`), the selection
 * (`useKeywordSelection`), the segments (`useSegmentation`), the names (`useCampaignNaming`)
 * and the creation (`useCreation`); here the moves between steps and why the action is
 * disabled. The pure parts are `wizard-state.ts`, `wizard-reducer.ts` and `search-form.ts`.
 */
import { useCallback } from 'react';
import { MAX_CAMPAIGNS } from '../campaign-plan';
import { ENTRY_KEY, LAST_ITEM_KEY } from '../saved';
import { canAdvanceFrom, nextStep, previousStep, searchBlocker, selectionBlocker } from '../wizard';
import { entryOf } from '../wizard-state';
import { useCampaignNaming } from './useCampaignNaming';
import { useCollection } from './useCollection';
import { useCreation, useCreationTarget } from './useCreation';
import { useKeywordSelection } from './useKeywordSelection';
import { useSegmentation } from './useSegmentation';
import { useWizardStore } from './useWizardStore';

export function useSuggester() {
  const store = useWizardStore();
  const { state, stateRef, dispatch, scope, persist } = store;
  const collection = useCollection(store);
  const selection = useKeywordSelection(store);
  const { groups, segmentation, segmentLabel } = useSegmentation(store);
  const { creationOrg, creationScope } = useCreationTarget(store);
  const naming = useCampaignNaming(store, groups, segmentLabel, creationScope);
  const { forgetSaved: forgetSelection } = selection;
  const { forgetSaved: forgetPlan } = naming;
  const forgetSaved = useCallback(() => {
    forgetPlan();
    forgetSelection();
  }, [forgetPlan, forgetSelection]);
  const creation = useCreation(store, creationScope, naming.campaignNames, forgetSaved);

  const { askBack, start } = collection;
  const back = useCallback(() => {
    const { step } = stateRef.current;
    if (step === 2) {
      askBack();
      return;
    }
    if (step < 2) return;
    const now = new Date();
    const to = previousStep(step);
    dispatch({ type: 'stepped', step: to });
    persist({ [LAST_ITEM_KEY]: { step: to, taskId: stateRef.current.resultId, savedAt: now.toISOString() } });
  }, [stateRef, dispatch, askBack, persist]);

  const advance = useCallback(() => {
    const current = stateRef.current;
    if (current.step === 1) {
      void start();
      return;
    }
    if (!canAdvanceFrom(current.step) || current.selected.length === 0) return;
    const now = new Date();
    const to = nextStep(current.step);
    dispatch({ type: 'stepped', step: to });
    persist({ [ENTRY_KEY]: entryOf({ ...current, step: to }, now), [LAST_ITEM_KEY]: { step: to, taskId: current.resultId, savedAt: now.toISOString() } });
  }, [stateRef, dispatch, start, persist]);

  const blocker =
    state.step === 1
      ? searchBlocker({
          adamId: state.form.app?.adamId ?? null,
          country: state.form.country,
          suggestionType: state.form.suggestionType,
          requiredKeywords: collection.requiredKeywords,
          competitorIds: state.form.competitorIds,
        })
      : selectionBlocker(state.step, {
          collecting: state.collecting !== null || state.loadingResult,
          selectedCount: state.selected.length,
          badNames: naming.problems.some((p) => p !== null),
          // Room is kept for the discovery campaign.
          tooManyCampaigns: naming.plan.length > MAX_CAMPAIGNS - 1,
        });

  return {
    ready: store.hydrated,
    hasAccount: scope !== null,
    scope: state.scope ?? scope,
    state,
    /** The result's keywords with their estimated impressions once known (else as collected). */
    keywords: selection.keywords,
    /** The estimates are being asked: the impressions show no figure yet. */
    estimating: selection.estimating,
    requiredKeywords: collection.requiredKeywords,
    negativeKeywords: collection.negativeKeywords,
    blocker,
    /** Step 3. */
    groups,
    segmentation,
    segmentLabel,
    /** Step 4: the campaigns, their names and each name's problem. */
    plan: naming.plan,
    campaignNames: naming.campaignNames,
    problems: naming.problems,
    checkingNames: naming.checkingNames,
    naming: naming.naming,
    /** Step 5. */
    creationScope,
    currency: creationOrg?.currency ?? null,
    create: creation.create,
    submitting: creation.submitting,
    endCreation: creation.endCreation,
    completeCollection: collection.completeCollection,
    creationFailed: state.creating?.failed ?? false,
    dismissCreation: creation.dismissCreation,
    dismissCreated: creation.dismissCreated,
    setForm: collection.setForm,
    setSelection: selection.setSelection,
    advance,
    back,
    backModal: collection.backModal,
    stopModal: collection.stopModal,
  };
}

export type Suggester = ReturnType<typeof useSuggester>;
