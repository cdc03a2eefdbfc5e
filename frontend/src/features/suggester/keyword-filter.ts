/**
 * Step 2's keyword list as pure functions: the search, popularity range and source
 * filters, Apple's 1–5 scale, and what a bulk selection or removal leaves.
 */
import type { Keyword, SourceType } from './api/types';
import { SOURCE_TYPES } from './api/types';
import type { PickedKeyword } from './saved';

export interface KeywordFilter {
  /** Text in the keyword (case-insensitive). */
  search: string;
  /** Popularity 1–100 from..to; a keyword without popularity shows only with the full range. */
  popularity: [number, number];
  /** Keywords from any of these sources; empty: every source. */
  sources: SourceType[];
}

export const FULL_RANGE: [number, number] = [0, 100];
export const NO_FILTER: KeywordFilter = { search: '', popularity: FULL_RANGE, sources: [] };

export function isFiltered(filter: KeywordFilter): boolean {
  return filter.search.trim() !== '' || filter.popularity[0] !== FULL_RANGE[0] || filter.popularity[1] !== FULL_RANGE[1] || filter.sources.length > 0;
}

export function matches(keyword: Keyword, { search, popularity: [from, to], sources }: KeywordFilter): boolean {
  const text = search.trim().toLowerCase();
  if (text !== '' && !keyword.name.toLowerCase().includes(text)) return false;
  if (from !== FULL_RANGE[0] || to !== FULL_RANGE[1]) {
    if (keyword.popularity == null || keyword.popularity < from || keyword.popularity > to) return false;
  }
  if (sources.length > 0 && !keyword.sources.some((s) => sources.includes(s.type))) return false;
  return true;
}

export function filterKeywords(items: readonly Keyword[], filter: KeywordFilter): Keyword[] {
  return items.filter((k) => matches(k, filter));
}

/** Apple's 1–5 scale: the server's, else from 1–100 (1–20 → 1 … 81–100 → 5); 0 without popularity. */
export function popularityDots(keyword: Pick<Keyword, 'popularity' | 'applePopularity'>): number {
  if (typeof keyword.applePopularity === 'number') return Math.min(5, Math.max(0, Math.round(keyword.applePopularity)));
  if (keyword.popularity == null || keyword.popularity <= 0) return 0;
  return Math.min(5, Math.ceil(keyword.popularity / 20));
}

/** The source types present in a list, in the contract's order. */
export function sourcesIn(items: readonly Keyword[]): SourceType[] {
  const present = new Set(items.flatMap((k) => k.sources.map((s) => s.type)));
  return SOURCE_TYPES.filter((type) => present.has(type));
}

const pick = (k: Keyword): PickedKeyword => ({ name: k.name, impressions: k.impressions });

/** `selected` with `keywords` added (on) or taken out (off), in the list's order of arrival. */
export function toggleSelection(selected: readonly PickedKeyword[], keywords: readonly Keyword[], on: boolean): PickedKeyword[] {
  const names = new Set(keywords.map((k) => k.name));
  const rest = selected.filter((p) => !names.has(p.name));
  return on ? [...rest, ...keywords.map(pick)] : rest;
}

/** Removes the selected keywords from the list: the selection empties into `removed`. */
export function removeSelected(selected: readonly PickedKeyword[], removed: readonly PickedKeyword[]): { selected: PickedKeyword[]; removed: PickedKeyword[] } {
  const already = new Set(removed.map((r) => r.name));
  return { selected: [], removed: [...removed, ...selected.filter((p) => !already.has(p.name))] };
}
