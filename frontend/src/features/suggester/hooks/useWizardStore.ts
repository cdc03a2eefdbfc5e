/**
 * What every step of the suggester shares: the wizard's state under its reducer, the account
 * scope it belongs to, and how the place is saved per user in options (`suggester-entry`,
 * `suggester-loader`, `suggester-last-item`, 24 h). The saved place is read once, when the
 * options, the defaults and the account are known, so a reload or another browser resumes
 * there; a campaign group outside the saved account resets everything
 * (docs/product.md#4-sign-in-account-and-session).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useReducer, useRef, type RefObject } from 'react';
import { useActiveAccount } from '@/features/accounts';
import { useFrontOptions, useSaveFrontOptions, type FrontOptions } from '@/features/options';
import { taskKeys } from '@/features/tasks';
import { errorMessage } from '@/lib/api-error';
import { showSnackbar } from '@/lib/notifications';
import { useSearchDefaults } from '../api/search-info';
import type { Scope } from '../api/types';
import { CLEARED, LAST_ITEM_KEY, LOADER_KEY, readSaved, type SavedState } from '../saved';
import { wizardReducer, type WizardAction } from '../wizard-reducer';
import { initialState, type WizardState } from '../wizard-state';

export interface WizardStore {
  state: WizardState;
  /** The state as last rendered, for callbacks that run after an await or from an effect. */
  stateRef: RefObject<WizardState>;
  dispatch: (action: WizardAction) => void;
  /** The saved place has been read. */
  hydrated: boolean;
  /** The active account and campaign group (null without an account). */
  scope: Scope | null;
  orgId: string | null;
  active: ReturnType<typeof useActiveAccount>;
  defaults: ReturnType<typeof useSearchDefaults>['data'];
  /** Saves options, telling the user when that fails. */
  persist: (values: FrontOptions) => void;
  /** The background-tasks popover lists the collection and the creation too: it hears of each start and end. */
  refreshTasks: () => void;
  queryClient: ReturnType<typeof useQueryClient>;
}

/** The wizard's state and whether the saved place has been read (the `restored` action). */
interface StoreState {
  hydrated: boolean;
  wizard: WizardState;
}

function storeReducer(s: StoreState, action: WizardAction): StoreState {
  const wizard = wizardReducer(s.wizard, action);
  const hydrated = s.hydrated || action.type === 'restored';
  return wizard === s.wizard && hydrated === s.hydrated ? s : { hydrated, wizard };
}

export function useWizardStore(): WizardStore {
  const active = useActiveAccount();
  const accountId = active.account?._id ?? null;
  const orgId = active.org?.orgId ?? null;
  const scope = useMemo<Scope | null>(() => (accountId ? { accountId, orgId } : null), [accountId, orgId]);
  const options = useFrontOptions();
  const defaults = useSearchDefaults();
  const save = useSaveFrontOptions();
  const queryClient = useQueryClient();
  const refreshTasks = useCallback(() => void queryClient.invalidateQueries({ queryKey: taskKeys.all }), [queryClient]);
  const saveRef = useRef(save.mutate);
  useEffect(() => {
    saveRef.current = save.mutate;
  });

  const [{ wizard: state, hydrated }, dispatch] = useReducer(storeReducer, null, () => ({ hydrated: false, wizard: initialState(null) }));
  const stateRef = useRef(state);
  useEffect(() => {
    stateRef.current = state;
  });

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
    dispatch({ type: 'restored', saved, scope, defaults: defaults.data });
  }, [hydrated, ready, options.data, defaults.data, accountId, scope, persist]);

  // A campaign group outside the account the state belongs to resets it
  // (docs/product.md#4-sign-in-account-and-session).
  useEffect(() => {
    if (!hydrated) return;
    const current = stateRef.current;
    if (current.scope?.accountId === accountId) {
      if (current.scope.orgId !== orgId && current.step === 1 && !current.collecting) dispatch({ type: 'scopeMoved', scope });
      return;
    }
    const touched = current.scope !== null && (current.step > 1 || current.collecting !== null || current.form.app !== null);
    dispatch({ type: 'reset', scope, defaults: defaults.data });
    if (touched) persist(CLEARED);
  }, [hydrated, accountId, orgId, scope, defaults.data, persist]);

  return { state, stateRef, dispatch, hydrated, scope, orgId, active, defaults: defaults.data, persist, refreshTasks, queryClient };
}
