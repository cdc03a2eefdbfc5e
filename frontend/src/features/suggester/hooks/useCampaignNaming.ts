/**
 * Step 4 of the suggester (docs/product.md#3-suggester-state: campaigns to create): one campaign
 * per segment holding keywords, named from the pattern or as typed, each name checked (empty, too
 * long, twice, or already a campaign of the campaign group), and the plan saved (debounced) like
 * the selection.
 */
import { useDebouncedValue } from '@mantine/hooks';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { t } from '@/i18n';
import { useCampaignsExist } from '../api/creation';
import type { Scope } from '../api/types';
import { nameKey, nameOf, nameProblems, planCampaigns } from '../campaign-plan';
import { ENTRY_KEY } from '../saved';
import type { KeywordGroups, Segment } from '../segmentation';
import { timing } from '../wizard';
import { entryOf } from '../wizard-state';
import type { WizardStore } from './useWizardStore';

export function useCampaignNaming(
  { state, stateRef, dispatch, hydrated, persist }: WizardStore,
  groups: KeywordGroups,
  segmentLabel: (segment: Segment) => string,
  creationScope: Scope | null,
) {
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
  const [askedNames] = useDebouncedValue(state.step >= 4 ? campaignNames : [], timing.namesDebounceMs);
  const exists = useCampaignsExist(creationScope, askedNames);
  const existing = useMemo(() => new Set((exists.data ?? []).map(nameKey)), [exists.data]);
  const problems = useMemo(() => nameProblems(campaignNames, existing), [campaignNames, existing]);

  const naming = useMemo(
    () => ({
      setPattern: (pattern: string) => dispatch({ type: 'patternSet', pattern }),
      /** The name of campaign `key` as typed (the pattern's again when it equals it). */
      setName: (key: string, name: string, patternName: string) => dispatch({ type: 'nameSet', key, name, patternName }),
      reset: () => dispatch({ type: 'namesReset' }),
    }),
    [dispatch],
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
  }, [hydrated, state.step, state.items, state.selected, state.keywordGroups, state.names, state.creating, stateRef, persist]);

  /** The plan saved is forgotten (a new wizard starts): its next change is the first. */
  const forgetSaved = useCallback(() => {
    planSaved.current = '';
  }, []);

  return { plan, campaignNames, problems, checkingNames: exists.isFetching, naming, forgetSaved };
}
