/**
 * Step 5 of the suggester: the campaign group the campaigns go to, the creation started
 * from the settings (its task polled by the screen; a reload while it runs shows its
 * progress instead of the form, so nothing is sent twice), and its end: a failure's report
 * stays on step 5, a success resets the wizard (docs/product.md#4-suggester) and links the
 * campaigns made.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { createCampaigns } from '../api/creation';
import type { Scope } from '../api/types';
import type { CreateBody } from '../campaign-plan';
import { CLEARED, ENTRY_KEY, LAST_ITEM_KEY } from '../saved';
import { entryOf } from '../wizard-state';
import type { WizardStore } from './useWizardStore';

/**
 * The campaign group the campaigns go to: the one the state was saved under, else the
 * active one, else the account's first; and the scope of the creation's calls.
 */
export function useCreationTarget({ state, scope, orgId, active }: WizardStore) {
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
  return { creationOrg, creationScope };
}

export function useCreation(
  { stateRef, dispatch, defaults, persist, refreshTasks, queryClient }: WizardStore,
  creationScope: Scope | null,
  campaignNames: string[],
  /** Forgets what the steps saved, once the wizard starts again. */
  forgetSaved: () => void,
) {
  // The plan's names when the creation ends (read then, not when the callback was made).
  const campaignNamesRef = useRef(campaignNames);
  useEffect(() => {
    campaignNamesRef.current = campaignNames;
  });
  const [submitting, setSubmitting] = useState(false);
  const create = useCallback(
    async (body: CreateBody) => {
      if (!creationScope) return;
      setSubmitting(true);
      try {
        const taskId = await createCampaigns(creationScope, body);
        dispatch({ type: 'creationStarted', taskId });
        refreshTasks();
        // A reload while it runs shows its progress instead of the form (nothing is sent twice).
        const current = stateRef.current;
        persist({ [ENTRY_KEY]: entryOf(current, new Date()), [LAST_ITEM_KEY]: { step: 5, taskId: current.resultId, creating: taskId, savedAt: new Date().toISOString() } });
      } finally {
        setSubmitting(false);
      }
    },
    [creationScope, stateRef, dispatch, refreshTasks, persist],
  );
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
        dispatch({ type: 'creationFailed' });
        return;
      }
      const created = { accountId: creationScope?.accountId ?? '', orgId: creationScope?.orgId ?? null, names: made.length > 0 ? made : campaignNamesRef.current };
      dispatch({ type: 'created', created, defaults });
      forgetSaved();
      persist(CLEARED);
    },
    [creationScope, defaults, dispatch, forgetSaved, persist, queryClient, refreshTasks],
  );
  /** Leaves a failed creation's report, back to the settings. */
  const dismissCreation = useCallback(() => {
    dispatch({ type: 'creationDismissed' });
    persist({ [LAST_ITEM_KEY]: { step: 5, taskId: stateRef.current.resultId, creating: null, savedAt: new Date().toISOString() } });
  }, [stateRef, dispatch, persist]);
  const dismissCreated = useCallback(() => dispatch({ type: 'createdDismissed' }), [dispatch]);

  return { create, submitting, endCreation, dismissCreation, dismissCreated };
}
