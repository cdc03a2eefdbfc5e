/**
 * A negative keyword list as the calls answer and take it (docs/api/creation.md "Negative
 * keyword lists"): named lists of negative keywords of the workspace, applied to campaigns or
 * ad groups as real negatives at Apple (job `apply-negative-lists`); and a place's key in the
 * editor's pickers.
 */
import { z } from 'zod';
import { zAppliedPlace, type zConflict, zListItem, zListKeywordItem } from '@/api/generated/zod.gen';

/** The document's `AppliedPlace`, the campaign level's `adGroupId` null rather than absent (the pickers key places by it). */
export const placeSchema = zAppliedPlace.extend({ adGroupId: zAppliedPlace.shape.adGroupId.transform((v) => v ?? null) });
export type Place = z.output<typeof placeSchema>;

/**
 * The document's `ListItem` as the listing answers it: no terms or places, only how many
 * (issue 42 item 5: 'Applied to 0' came from reading the absent places as none), so its type
 * has no `places` to read.
 */
export const summarySchema = zListItem.omit({ keywords: true, places: true });
export type NegativeListSummary = z.output<typeof summarySchema>;

/** A term with the match type the editor's switch shows (the document's default, EXACT, when none is given). */
const keywordSchema = zListKeywordItem.extend({
  matchType: zListKeywordItem.shape.matchType.transform((v): 'EXACT' | 'BROAD' => (v === 'BROAD' ? 'BROAD' : 'EXACT')),
});

/** One list (`list/{id}`, and what a save answers): the document's `ListItem` with its terms and places as lists. */
export const listSchema = zListItem.extend({
  places: z
    .array(placeSchema)
    .nullish()
    .transform((v) => v ?? []),
  keywords: z
    .array(keywordSchema)
    .nullish()
    .transform((v) => v ?? []),
});
export type NegativeList = z.output<typeof listSchema>;

/** The document's `Conflict`: a term of the list and the keyword it would block. */
export type Conflict = z.output<typeof zConflict>;

export interface ListInput {
  name: string;
  keywords: { text: string; matchType: 'EXACT' | 'BROAD' }[];
  places: { campaignId: string; adGroupId: string | null }[];
}

/** A place's key in pickers: `campaignId` or `campaignId/adGroupId`. */
export const placeKey = (p: { campaignId: string; adGroupId: string | null }): string => (p.adGroupId ? `${p.campaignId}/${p.adGroupId}` : p.campaignId);
export function placeOfKey(key: string): { campaignId: string; adGroupId: string | null } {
  const [campaignId = '', adGroupId] = key.split('/');
  return { campaignId, adGroupId: adGroupId ?? null };
}
