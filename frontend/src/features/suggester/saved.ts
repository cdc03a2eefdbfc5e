/**
 * The suggester's place, saved per user in options (docs/product.md#3-options-saved-per-user,
 * docs/api/suggester.md "Saved state"): `suggester-entry` (the suggester state with
 * `savedAt`), `suggester-loader` (the running collection, with `startedAt`) and
 * `suggester-last-item` (the step reached and the collection's result id). Each expires
 * 24 h after it was saved (docs/product.md#9-suggester), and belongs to the account it was saved
 * under: a change of campaign group outside that account resets it
 * (docs/product.md#4-sign-in-account-and-session).
 */
import { z } from 'zod';
import { clampStep, isExpired, type Step } from './wizard';

export const ENTRY_KEY = 'suggester-entry';
export const LOADER_KEY = 'suggester-loader';
export const LAST_ITEM_KEY = 'suggester-last-item';
export const SAVED_KEYS = [ENTRY_KEY, LOADER_KEY, LAST_ITEM_KEY] as const;

const appSchema = z.object({
  adamId: z.string(),
  name: z.string(),
  developer: z.string().nullable().catch(null),
  icon: z.string().nullable().catch(null),
  countries: z.array(z.string()).nullable().catch(null),
});

/**
 * A selected keyword; `group` is its segment's id in step 3 (docs/product.md#3-suggester-state:
 * name, impressions, group).
 */
const pickedSchema = z.object({ name: z.string(), impressions: z.number().catch(0), group: z.string().nullish().catch(null) });
export type PickedKeyword = z.infer<typeof pickedSchema>;

const segmentSchema = z.object({
  id: z.string(),
  kind: z.enum(['brand', 'competitor', 'generic', 'manual']),
  name: z.string().catch(''),
  match: z.enum(['EXACT', 'BROAD', 'BOTH']).catch('EXACT'),
});

/**
 * Step 3's keyword groups (docs/product.md#3-suggester-state: id, segments, manualSegmentation).
 */
export const keywordGroupsSchema = z.object({
  id: z.string(),
  segments: z.array(segmentSchema).min(1),
  manualSegmentation: z.boolean().catch(false),
});

/** Step 4's campaigns to create: the name pattern and the names the user typed over it, by segment. */
export const campaignNamesSchema = z.object({
  pattern: z.string(),
  edits: z.record(z.string(), z.string()).catch({}),
});

export const entrySchema = z.object({
  accountId: z.string(),
  orgId: z.string().nullable().catch(null),
  app: appSchema.nullable().catch(null),
  country: z.string().nullable().catch(null),
  searchParameters: z.object({
    suggestionType: z.enum(['app', 'keywords', 'competitors']).catch('app'),
    requiredKeywords: z.array(z.string()).catch([]),
    negativeKeywords: z.array(z.string()).catch([]),
  }),
  settings: z
    .object({
      excludedWordsByPopularities: z.number().catch(1),
      withAggregation: z.boolean().catch(true),
      withoutDescription: z.boolean().catch(false),
      withoutApps: z.boolean().catch(false),
      withoutShuffle: z.boolean().catch(false),
    })
    .nullable()
    .catch(null),
  competitors: z.array(z.string()).catch([]),
  selected: z.array(pickedSchema).catch([]),
  removed: z.array(pickedSchema).catch([]),
  keywordGroups: keywordGroupsSchema.nullish().catch(null),
  campaigns: campaignNamesSchema.nullish().catch(null),
  savedAt: z.string(),
});
export type SavedEntry = z.infer<typeof entrySchema>;

export const loaderSchema = z.object({
  taskId: z.string(),
  adamId: z.string(),
  country: z.string(),
  startedAt: z.string(),
});
export type SavedLoader = z.infer<typeof loaderSchema>;

export const lastItemSchema = z.object({
  step: z.number().transform(clampStep),
  taskId: z.string().nullable().catch(null),
  savedAt: z.string(),
  creating: z.string().nullish().catch(null),
});
/** `creating`: the campaign creation started from step 5 and not yet ended well (a reload shows its progress). */
export type SavedLastItem = { step: Step; taskId: string | null; creating?: string | null; savedAt: string };

export interface SavedState {
  entry: SavedEntry | null;
  loader: SavedLoader | null;
  lastItem: SavedLastItem | null;
  /** Something was saved that must go (expired, unreadable or of another account). */
  stale: boolean;
}

/**
 * The saved state still valid at `now` for `accountId`. Expired, unreadable or foreign
 * parts are left out and flagged `stale`, so the screen clears them. A loader or last item
 * without its entry is of no use and goes too.
 */
export function readSaved(options: Record<string, unknown> | undefined, accountId: string | null, now: number): SavedState {
  const raw = options ?? {};
  const present = SAVED_KEYS.some((key) => raw[key] !== undefined && raw[key] !== null);
  const entryParsed = entrySchema.safeParse(raw[ENTRY_KEY]);
  const entry = entryParsed.success && !isExpired(entryParsed.data.savedAt, now) && entryParsed.data.accountId === accountId ? entryParsed.data : null;
  const loaderParsed = loaderSchema.safeParse(raw[LOADER_KEY]);
  const loader = entry && loaderParsed.success && !isExpired(loaderParsed.data.startedAt, now) ? loaderParsed.data : null;
  const lastParsed = lastItemSchema.safeParse(raw[LAST_ITEM_KEY]);
  const lastItem = entry && lastParsed.success && !isExpired(lastParsed.data.savedAt, now) ? lastParsed.data : null;
  const kept = [entry, loader, lastItem].filter((part) => part !== null).length;
  const saved = SAVED_KEYS.filter((key) => raw[key] !== undefined && raw[key] !== null).length;
  return { entry, loader, lastItem, stale: present && kept < saved };
}

/** The options that clear every saved part (a `null` value removes a key). */
export const CLEARED: Record<(typeof SAVED_KEYS)[number], null> = { [ENTRY_KEY]: null, [LOADER_KEY]: null, [LAST_ITEM_KEY]: null };
