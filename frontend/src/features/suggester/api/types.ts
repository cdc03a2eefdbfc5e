/**
 * The suggester's wire shapes (docs/api/suggester.md): apps, competitors, the search
 * payload, the collected keywords and the answers of the collection routes.
 */
import type { z } from 'zod';
import { zAppItem, zEnvelopeItemDefaults, zKeyword, zPickerApp, zPolled, zStarted } from '@/api/generated/zod.gen';
import type { AppStoreSearch, SearchPayload as WirePayload } from '@/api/generated/types.gen';

/** An Apple Ads account scope: the `accountId` and `orgId` query of the `asa/*`-like routes. */
export interface Scope {
  accountId: string;
  /** The active campaign group; absent: the account's first one in use. */
  orgId: string | null;
}

/** A country or region Apple Ads serves, as the request bodies' enum names it. */
export type CountryCode = AppStoreSearch['country'];
/** A country the screen picked from `country/allWithCodes` (the server's list), as a body's code. */
export const asCountry = (code: string): CountryCode => code as CountryCode;

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

/** `asa/apps`: an app of the campaign group (the document's `AppItem`). */
export const groupAppSchema = zAppItem.transform(
  (a): AppRef => ({ adamId: a.adamId, name: a.appName, developer: a.developerName ?? null, icon: null, countries: a.countryOrRegionCodes ?? null }),
);

/** An App Store app of the competitor routes (search results, saved competitors: `PickerApp`). */
export const storeAppSchema = zPickerApp.transform((a): AppRef & { genre: string | null } => ({
  adamId: a.adamId,
  name: a.name,
  developer: a.developer ?? null,
  icon: a.icon ?? null,
  countries: null,
  genre: a.genre ?? null,
}));
export type StoreApp = z.output<typeof storeAppSchema>;

/**
 * The search payload, first form (docs/product.md#3-suggester-search-payload): the document's
 * `SearchPayload` with every member given.
 */
export type SearchPayload = { [K in keyof WirePayload]-?: NonNullable<WirePayload[K]> };

/** Where a keyword came from. */
export const SOURCE_TYPES = ['required', 'hint', 'app', 'competitor', 'phrase', 'apple', 'searchTerm'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

/** A collected keyword (the document's `Keyword`). */
export const keywordSchema = zKeyword;
export type Keyword = z.output<typeof keywordSchema>;
export type KeywordSource = Keyword['sources'][number];

/** The answer of a start (`Started`: the task id). */
export const startResultSchema = zStarted;

/** The answer of a poll (`Polled`): the task, and the items once it finished. */
export const pollResultSchema = zPolled;
export type PollResult = z.output<typeof pollResultSchema>;

/** The step-1 form's defaults (`GET /api/keyword/default`: `Defaults`). */
export const defaultsSchema = zEnvelopeItemDefaults.shape.result;
export type SearchDefaults = z.output<typeof defaultsSchema>['item'];
