/**
 * Step 3 of the suggester (docs/product.md#3-suggester-state: keyword groups): the segments, every
 * selected keyword in one (brand, competitor or generic by the app's and the competitors' names, or
 * a manual segment), and the changes the step makes to them.
 */
import { useEffect, useMemo } from 'react';
import { t } from '@/i18n';
import { assignSegments, classifierOf, groupsFor, type MatchChoice, type Segment } from '../segmentation';
import type { WizardStore } from './useWizardStore';

/** A segment's name as shown: a manual one's own, a built-in one's copy. */
export const segmentLabel = (segment: Segment): string => (segment.kind === 'manual' ? segment.name : t(`suggester.segment.${segment.kind}`));

export function useSegmentation({ state, dispatch, hydrated }: WizardStore) {
  const classifier = useMemo(() => classifierOf(state.form.app, state.items), [state.form.app, state.items]);
  const groups = useMemo(() => groupsFor(state.keywordGroups, state.resultId), [state.keywordGroups, state.resultId]);
  useEffect(() => {
    if (!hydrated || state.step < 3 || !state.items) return;
    const selected = assignSegments(state.selected, groups.segments, classifier);
    if (selected === state.selected && groups === state.keywordGroups) return;
    dispatch({ type: 'segmented', groups, selected });
  }, [hydrated, state.step, state.items, state.selected, state.keywordGroups, groups, classifier, dispatch]);

  const segmentation = useMemo(
    () => ({
      /** Moves the keywords `names` to segment `to`. */
      move: (names: ReadonlySet<string>, to: string) => dispatch({ type: 'keywordsMoved', names, to }),
      /** Makes a manual segment named `name`, moving `names` into it. */
      add: (name: string, names: ReadonlySet<string> = new Set()) => dispatch({ type: 'segmentAdded', name, names }),
      rename: (id: string, name: string) => dispatch({ type: 'segmentRenamed', id, name }),
      remove: (id: string) => dispatch({ type: 'segmentRemoved', id, classifier }),
      setMatch: (id: string, match: MatchChoice) => dispatch({ type: 'matchSet', id, match }),
      /** Back to the automatic split: the manual segments go, every keyword is classified again. */
      reset: () => dispatch({ type: 'segmentsReset', classifier }),
    }),
    [dispatch, classifier],
  );

  return { groups, segmentation, segmentLabel };
}
