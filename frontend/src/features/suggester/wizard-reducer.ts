/**
 * What moves the suggester wizard's state, as a pure reducer: one action per thing that
 * happens (the saved place read, a collection started, polled and ended, a step taken, the
 * selection, segments and names changed, a creation started and ended). The hooks of
 * `hooks/` dispatch them and save the place; nothing here calls the server.
 */
import type { Task } from '@/features/tasks';
import type { Estimates } from './api/estimates';
import type { Keyword, Scope, SearchDefaults } from './api/types';
import { DEFAULT_PATTERN } from './campaign-plan';
import type { PickedKeyword, SavedState } from './saved';
import { formFromDefaults, type SearchForm } from './search-form';
import {
  assignSegments,
  defaultSegments,
  groupsFor,
  moveKeywords,
  newSegmentId,
  removeSegment,
  type Classifier,
  type KeywordGroups,
  type MatchChoice,
  type Segment,
} from './segmentation';
import type { Step } from './wizard';
import { collectedState, initialState, pickedWithEstimates, restoredState, startedState, type WizardState } from './wizard-state';

export type WizardAction =
  /** The saved place was read when the screen opened. */
  | { type: 'restored'; saved: SavedState; scope: Scope | null; defaults: SearchDefaults | undefined }
  /** A campaign group outside the state's account: everything starts again. */
  | { type: 'reset'; scope: Scope | null; defaults: SearchDefaults | undefined }
  /** Another campaign group of the same account, before anything ran. */
  | { type: 'scopeMoved'; scope: Scope | null }
  | { type: 'formChanged'; change: Partial<SearchForm> }
  | { type: 'starting'; scope: Scope }
  | { type: 'started'; scope: Scope; taskId: string }
  | { type: 'startFailed'; error: string }
  | { type: 'polled'; taskId: string; task: Task }
  /** The collection finished with its keywords. */
  | { type: 'collected'; taskId: string; items: Keyword[]; task: Task }
  /** The finished collection's phases were shown: on to its keywords. */
  | { type: 'collectionShown' }
  /** The collection failed (`error`) or was stopped elsewhere (null): back to step 1. */
  | { type: 'collectionEnded'; error: string | null }
  /** The user stopped the collection. */
  | { type: 'stopped' }
  /** Back from step 2: the list is discarded. */
  | { type: 'discarded' }
  | { type: 'stepped'; step: Step }
  | { type: 'selected'; selected: PickedKeyword[]; removed?: PickedKeyword[] }
  | { type: 'estimated'; estimates: Estimates }
  /** Step 3 opened or changed: the segments, and every selected keyword in one. */
  | { type: 'segmented'; groups: KeywordGroups; selected: PickedKeyword[] }
  | { type: 'keywordsMoved'; names: ReadonlySet<string>; to: string }
  | { type: 'segmentAdded'; name: string; names: ReadonlySet<string> }
  | { type: 'segmentRenamed'; id: string; name: string }
  | { type: 'segmentRemoved'; id: string; classifier: Classifier }
  | { type: 'matchSet'; id: string; match: MatchChoice }
  | { type: 'segmentsReset'; classifier: Classifier }
  | { type: 'patternSet'; pattern: string }
  /** The name of campaign `key` as typed (the pattern's again when it equals `patternName`). */
  | { type: 'nameSet'; key: string; name: string; patternName: string }
  | { type: 'namesReset' }
  | { type: 'creationStarted'; taskId: string }
  | { type: 'creationFailed' }
  /** The creation ended well: the state starts again, with the campaigns made. */
  | { type: 'created'; created: NonNullable<WizardState['created']>; defaults: SearchDefaults | undefined }
  | { type: 'creationDismissed' }
  | { type: 'createdDismissed' };

/** Step 3's groups and selection after `change` (the groups as step 3 shows them when none are saved). */
function regroup(s: WizardState, change: (groups: KeywordGroups, selected: PickedKeyword[]) => { groups: KeywordGroups; selected: PickedKeyword[] }): WizardState {
  const next = change(groupsFor(s.keywordGroups, s.resultId), s.selected);
  return { ...s, keywordGroups: next.groups, selected: next.selected };
}

const withSegments = (g: KeywordGroups, segments: Segment[]): KeywordGroups => ({ ...g, segments });

/** The list of a collection gone: back to step 1 with nothing collected or chosen. */
const withoutList = (s: WizardState): WizardState => ({ ...s, step: 1, collecting: null, items: null, resultId: null, selected: [], removed: [], keywordGroups: null });

export function wizardReducer(s: WizardState, action: WizardAction): WizardState {
  switch (action.type) {
    case 'restored':
      return restoredState(action.saved, action.scope, action.defaults);
    case 'reset':
      return initialState(action.scope, formFromDefaults(action.defaults));
    case 'scopeMoved':
      return { ...s, scope: action.scope };
    case 'formChanged':
      return { ...s, form: { ...s.form, ...action.change }, collectionError: null };
    case 'starting':
      return { ...s, starting: true, collectionError: null, scope: action.scope };
    case 'started':
      return startedState(s, action.scope, action.taskId);
    case 'startFailed':
      return { ...s, starting: false, collectionError: action.error };
    case 'polled':
      return s.collecting?.taskId === action.taskId ? { ...s, collecting: { ...s.collecting, task: action.task } } : s;
    case 'collected': {
      const next = collectedState(s, action.items, action.taskId);
      // A collection that ran here first shows the phases its polls missed, ending with the
      // task's last message; the collecting panel then calls `completeCollection`.
      return s.collecting ? { ...s, collecting: { ...s.collecting, task: action.task, ended: next } } : next;
    }
    case 'collectionShown':
      return s.collecting?.ended ?? s;
    case 'collectionEnded':
      return { ...s, step: 1, collecting: null, loadingResult: false, items: null, resultId: null, collectionError: action.error };
    case 'stopped':
      return withoutList(s);
    case 'discarded':
      return { ...withoutList(s), loadingResult: false };
    case 'stepped':
      return { ...s, step: action.step };
    case 'selected':
      return { ...s, selected: action.selected, removed: action.removed ?? s.removed };
    case 'estimated':
      return { ...s, selected: pickedWithEstimates(s.selected, action.estimates), removed: pickedWithEstimates(s.removed, action.estimates) };
    case 'segmented':
      return { ...s, keywordGroups: action.groups, selected: action.selected };
    case 'keywordsMoved':
      return regroup(s, (g, selected) => ({ groups: { ...g, manualSegmentation: true }, selected: moveKeywords(selected, action.names, action.to) }));
    case 'segmentAdded':
      return regroup(s, (g, selected) => {
        const id = newSegmentId(g.segments);
        const segment: Segment = { id, kind: 'manual', name: action.name.trim(), match: 'EXACT' };
        return { groups: { ...g, segments: [...g.segments, segment], manualSegmentation: true }, selected: moveKeywords(selected, action.names, id) };
      });
    case 'segmentRenamed':
      return regroup(s, (g, selected) => ({
        groups: withSegments(
          g,
          g.segments.map((x) => (x.id === action.id && x.kind === 'manual' ? { ...x, name: action.name.trim() } : x)),
        ),
        selected,
      }));
    case 'segmentRemoved':
      return regroup(s, (g, selected) => removeSegment(g, selected, action.id, action.classifier));
    case 'matchSet':
      return regroup(s, (g, selected) => ({ groups: withSegments(g, g.segments.map((x) => (x.id === action.id ? { ...x, match: action.match } : x))), selected }));
    case 'segmentsReset':
      // Back to the automatic split: the manual segments go, every keyword is classified again.
      return regroup(s, (g, selected) => {
        const segments = defaultSegments().map((d) => ({ ...d, match: g.segments.find((x) => x.id === d.id)?.match ?? d.match }));
        return { groups: { ...g, segments, manualSegmentation: false }, selected: assignSegments(selected, segments, action.classifier, true) };
      });
    case 'patternSet':
      return { ...s, names: { ...s.names, pattern: action.pattern } };
    case 'nameSet': {
      const edits = { ...s.names.edits };
      if (action.name === action.patternName) delete edits[action.key];
      else edits[action.key] = action.name;
      return { ...s, names: { ...s.names, edits } };
    }
    case 'namesReset':
      return { ...s, names: { pattern: DEFAULT_PATTERN, edits: {} } };
    case 'creationStarted':
      return { ...s, creating: { taskId: action.taskId, failed: false } };
    case 'creationFailed':
      return s.creating ? { ...s, creating: { ...s.creating, failed: true } } : s;
    case 'created':
      return { ...initialState(s.scope, formFromDefaults(action.defaults)), created: action.created };
    case 'creationDismissed':
      return { ...s, creating: null };
    case 'createdDismissed':
      return { ...s, created: null };
  }
}
