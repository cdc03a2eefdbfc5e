/**
 * The suggester's wire shapes (docs/api/suggester.md): apps, competitors, the search
 * payload, the collected keywords and the answers of the collection routes.
 */
import { z } from 'zod';
import { taskSchema } from '@/features/tasks';
import type { SuggestionType } from '../wizard';

/** An Apple Ads account scope: the `accountId` and `orgId` query of the `asa/*`-like routes. */
export interface Scope {
  accountId: string;
  /** The active campaign group; absent: the account's first one in use. */
  orgId: string | null;
}

export const scopeQuery = ({ accountId, orgId }: Scope) => ({ accountId, orgId: orgId ?? undefined });

/** An App Store app as the screen keeps it (the campaign group's, or found by search). */
export interface AppRef {
  adamId: string;
  name: string;
  developer: string | null;
  icon: string | null;
  /** Storefronts it is sold in, when known. */
  countries: string[] | null;
}

/** `asa/apps`: an app of the campaign group. */
export const groupAppSchema = z
  .object({
    adamId: z.string(),
    appName: z.string(),
    developerName: z.string().nullish(),
    countryOrRegionCodes: z.array(z.string()).nullish(),
  })
  .transform(
    (a): AppRef => ({ adamId: a.adamId, name: a.appName, developer: a.developerName ?? null, icon: null, countries: a.countryOrRegionCodes ?? null }),
  );

/** An App Store app of the competitor routes (search results, saved competitors). */
export const storeAppSchema = z
  .object({
    adamId: z.string(),
    name: z.string(),
    developer: z.string().nullish(),
    icon: z.string().nullish(),
    genre: z.string().nullish(),
    countries: z.array(z.string()).nullish(),
  })
  .transform((a): AppRef & { genre: string | null } => ({
    adamId: a.adamId,
    name: a.name,
    developer: a.developer ?? null,
    icon: a.icon ?? null,
    countries: a.countries ?? null,
    genre: a.genre ?? null,
  }));
export type StoreApp = z.output<typeof storeAppSchema>;

/** The search payload, first form (spec §3 Suggester search payload). */
export interface SearchPayload {
  country: string;
  suggestionType: SuggestionType;
  words: string[];
  excludedWords: string[];
  excludedWordsByPopularities: number;
  competitors: string[];
  withoutDescription: boolean;
  withAggregation: boolean;
  withoutApps: boolean;
  onlyPopularity: boolean;
  withoutShuffle: boolean;
}

/** Where a keyword came from. */
export const SOURCE_TYPES = ['required', 'hint', 'app', 'competitor', 'phrase', 'apple', 'searchTerm'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

const sourceSchema = z.object({
  type: z.string(),
  adamId: z.string().nullish(),
  name: z.string().nullish(),
});

const bidOnSchema = z.object({
  campaignId: z.string(),
  campaignName: z.string().nullish(),
  adGroupId: z.string().nullish(),
  adGroupName: z.string().nullish(),
  matchType: z.string().nullish(),
});

const negatedInSchema = z.object({
  campaignId: z.string(),
  campaignName: z.string().nullish(),
  adGroupId: z.string().nullish(),
  adGroupName: z.string().nullish(),
});

/** A collected keyword. */
export const keywordSchema = z.object({
  name: z.string(),
  popularity: z.number().nullable(),
  applePopularity: z.number().nullish(),
  impressions: z.number().catch(0).default(0),
  sources: z.array(sourceSchema).catch([]).default([]),
  required: z.boolean().catch(false).default(false),
  bidOn: z.array(bidOnSchema).catch([]).default([]),
  negatedIn: z.array(negatedInSchema).catch([]).default([]),
});
export type Keyword = z.output<typeof keywordSchema>;
export type KeywordSource = Keyword['sources'][number];

/** The answer of a start. */
export const startResultSchema = z.object({ id: z.union([z.string(), z.number()]).transform(String) });

/** The answer of a poll: the task, and the items once it finished. */
export const pollResultSchema = z.object({
  task: taskSchema,
  items: z.array(keywordSchema).nullish(),
});
export type PollResult = z.output<typeof pollResultSchema>;

/** The step-1 form's defaults (`GET /api/keyword/default`). */
export const defaultsSchema = z.object({
  item: z.object({
    suggestionType: z.enum(['app', 'keywords', 'competitors']).catch('app'),
    excludedWordsByPopularities: z.number().catch(1),
    withAggregation: z.boolean().catch(true),
    withoutDescription: z.boolean().catch(false),
    withoutApps: z.boolean().catch(false),
    withoutShuffle: z.boolean().catch(false),
    negativeKeywords: z.array(z.string()).catch([]),
  }),
});
export type SearchDefaults = z.output<typeof defaultsSchema>['item'];
