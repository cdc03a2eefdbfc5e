/**
 * Step 1's form of the suggester (docs/product.md#2-keyword-suggester,
 * docs/product.md#5-suggester-steps): its fields, the form the user's defaults or a saved entry
 * give, and the search payload it sends.
 */
import { keywordListText, parseKeywordList } from '@/lib/keywords';
import type { AppRef, SearchDefaults, SearchPayload } from './api/types';
import type { SavedEntry } from './saved';
import type { SuggestionType } from './wizard';

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

export const EMPTY_FORM: SearchForm = {
  app: null,
  country: null,
  suggestionType: 'app',
  requiredText: '',
  negativeText: '',
  competitorIds: [],
  settings: DEFAULT_SETTINGS,
};

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
export function formFromEntry(entry: SavedEntry): SearchForm {
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
