/**
 * The suggester wizard's rules as pure functions (docs/product.md#2-keyword-suggester,
 * docs/product.md#4-suggester, docs/product.md#5-suggester-steps,
 * docs/product.md#9-suggester): the five steps and their action buttons, when
 * the action is disabled and which hint says why, the time hint and the collection's progress.
 */
import type { Timing } from '@/api/generated/types.gen';
import { t, type MessageKey } from '@/i18n';

/** docs/product.md#9-suggester: the wizard has 5 steps. */
export const STEP_COUNT = 5;
export type Step = 1 | 2 | 3 | 4 | 5;

/** docs/product.md#2-keyword-suggester: the steps' names, in order. */
export const STEP_TITLES: Record<Step, MessageKey> = {
  1: 'suggester.step.searchParameters',
  2: 'suggester.step.keywordSelection',
  3: 'suggester.step.keywordSegmentation',
  4: 'suggester.step.campaignNaming',
  5: 'suggester.step.campaignSettings',
};

/** docs/product.md#4-suggester: never beyond 5 or below 1. */
export function clampStep(step: number): Step {
  if (!Number.isFinite(step)) return 1;
  return Math.min(STEP_COUNT, Math.max(1, Math.trunc(step))) as Step;
}

/** The action button's text (docs/product.md#2-keyword-suggester). */
export function actionLabel(step: Step): MessageKey {
  if (step === 1) return 'suggester.action.start';
  if (step === STEP_COUNT) return 'suggester.action.create';
  return 'suggester.action.next';
}

/** A back button shows from step 2 (docs/product.md#2-keyword-suggester). */
export const hasBack = (step: Step): boolean => step >= 2;

/**
 * Going back from step 2 discards the keyword list, so it asks first
 * (docs/product.md#2-keyword-suggester).
 */
export const backNeedsConfirm = (step: Step): boolean => step === 2;

/** The last step: its action ('Create campaigns') submits the settings form instead of moving on. */
export const LAST_BUILT_STEP: Step = 5;

export type SuggestionType = 'app' | 'keywords' | 'competitors';
export const SUGGESTION_TYPES: readonly SuggestionType[] = ['app', 'keywords', 'competitors'];

/** What step 1's action depends on. */
export interface SearchFormState {
  adamId: string | null;
  country: string | null;
  suggestionType: SuggestionType;
  /** The required keywords as parsed (docs/product.md#5-keyword-lists). */
  requiredKeywords: readonly string[];
  /** Competitors chosen for competitor mode. */
  competitorIds: readonly string[];
}

/**
 * Why step 1's action is disabled (the hint of docs/product.md#2-keyword-suggester shown beside
 * it), or null when the search can start: an app and a country first, then required keywords when
 * exploring only from them, then at least one competitor in competitor mode
 * (docs/product.md#5-suggester-steps).
 */
export function searchBlocker(form: SearchFormState): MessageKey | null {
  if (!form.adamId || !form.country) return 'suggester.hint.selectAppCountry';
  if (form.suggestionType === 'keywords' && form.requiredKeywords.length === 0) return 'suggester.hint.addRequired';
  if (form.suggestionType === 'competitors' && form.competitorIds.length === 0) return 'suggester.hint.addCompetitor';
  return null;
}

/** What steps 2 to 5 depend on. */
export interface SelectionState {
  collecting: boolean;
  selectedCount: number;
  /** Step 4 and on: a campaign name is empty, too long, twice in the list or already used. */
  badNames?: boolean;
  /** Step 4 and on: more campaigns than one body takes. */
  tooManyCampaigns?: boolean;
}

/**
 * Why the action of steps 2 and 3 is disabled, or null: step 2 while collecting (the hint
 * 'Keyword research in progress') or with nothing selected, step 3 with nothing selected
 * ('Select at least one keyword', docs/product.md#5-suggester-steps).
 */
export function selectionBlocker(step: Step, { collecting, selectedCount, badNames = false, tooManyCampaigns = false }: SelectionState): MessageKey | null {
  if (step === 2 && collecting) return 'suggester.hint.inProgress';
  if (selectedCount === 0) return 'suggester.hint.selectKeyword';
  if (step >= 4 && tooManyCampaigns) return 'suggester.hint.tooManyCampaigns';
  if (step >= 4 && badNames) return 'suggester.hint.fixNames';
  return null;
}

/** Whether the action of `step` moves on (the last step's creates the campaigns instead). */
export function canAdvanceFrom(step: Step): boolean {
  return step < LAST_BUILT_STEP;
}

/** The next step (clamped). */
export const nextStep = (step: Step): Step => clampStep(step + 1);
/** The previous step (clamped). */
export const previousStep = (step: Step): Step => clampStep(step - 1);

/** docs/product.md#9-suggester: the time hint without past runs. */
export const DEFAULT_DURATION_HINT = '5-20 min';

/**
 * The time hint: '5-20 min' without a duration, else the duration in ms rounded up to
 * minutes; a first estimate (nothing measured here yet, docs/api/suggester.md "Timing") says
 * it is one and what it rests on: 'about 1 min (estimated from 43 planned calls)'.
 */
export function durationHint(timing: Pick<Timing, 'duration' | 'estimated' | 'calls'> | null | undefined): string {
  const ms = timing?.duration;
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return DEFAULT_DURATION_HINT;
  const minutes = `${Math.max(1, Math.ceil(ms / 60_000))} min`;
  if (!timing?.estimated) return minutes;
  return typeof timing.calls === 'number' ? t('suggester.durationPlanned').replace('{time}', minutes).replace('{calls}', String(timing.calls)) : t('suggester.durationAbout').replace('{time}', minutes);
}

/** docs/product.md#9-suggester: saved suggester options live 24 h. */
export const SAVED_TTL_MS = 24 * 60 * 60 * 1000;

/** Whether something saved at `savedAt` (ms, or an ISO date) has expired at `now`. */
export function isExpired(savedAt: number | string | null | undefined, now: number): boolean {
  const at = typeof savedAt === 'string' ? Date.parse(savedAt) : savedAt;
  if (at === null || at === undefined || !Number.isFinite(at)) return true;
  return now - at >= SAVED_TTL_MS || at > now + SAVED_TTL_MS;
}

/**
 * The suggester's own waits, read each time one starts. The component tests shorten them
 * (`shortenWaits` in `src/test/suggester-screen.ts`, `SuggesterCreation.test.tsx`) so that
 * they wait on what the screen does rather than on the clock; the app never changes them.
 */
export const timing = {
  /** docs/product.md#9-suggester: the collection is polled every 1000 ms. */
  pollMs: 1000,
  /** Selection and plan changes wait this long before they are saved (one save for a burst of clicks). */
  saveDebounceMs: 800,
  /** The App Store searches of the app and competitor pickers wait for typing to pause. */
  searchDebounceMs: 300,
  /** The check of step 4's campaign names against the campaign group waits for typing to pause. */
  namesDebounceMs: 400,
};
