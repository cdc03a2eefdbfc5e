/**
 * Step 3, keyword segmentation, as pure functions (docs/product.md#2-keyword-suggester,
 * docs/product.md#3-suggester-state: keyword groups with id, segments,
 * manualSegmentation): the selected keywords split into the segments an Apple Ads account is
 * usually built from — Brand (the app's own name and its developer's), Competitor (a competitor's
 * name), Generic/category (the rest) — and the segments the user makes and names. Each selected
 * keyword carries its segment's id (`group`); each segment chooses its match types (Exact, Broad or
 * both, which become separate ad groups of its campaign).
 *
 * The automatic split reads names, not sources: a keyword found while exploring a
 * competitor's metadata ('photo editor') is a category term, while one that names the
 * competitor ('snapseed filters') is a competitor term. The competitors' names come from the
 * keywords' sources of type competitor.
 */
import type { Keyword } from './api/types';
import type { PickedKeyword } from './saved';

export type SegmentKind = 'brand' | 'competitor' | 'generic' | 'manual';
export type MatchType = 'EXACT' | 'BROAD';
/** A segment's match types: one ad group each (both: an Exact and a Broad ad group). */
export type MatchChoice = 'EXACT' | 'BROAD' | 'BOTH';

export interface Segment {
  id: string;
  kind: SegmentKind;
  /** The user's name of a manual segment; the built-in ones are named by the screen. */
  name: string;
  match: MatchChoice;
}

/** The keyword groups of the suggester state (docs/product.md#3-suggester-state). */
export interface KeywordGroups {
  /** The selection they were made for: the collection's result id. */
  id: string;
  segments: Segment[];
  /** The user moved keywords or made segments: a return to step 3 keeps their choice. */
  manualSegmentation: boolean;
}

/** The built-in segments' ids (stable, so a saved state reads back). */
export const BRAND = 'brand';
export const COMPETITOR = 'competitor';
export const GENERIC = 'generic';

/** Most segments a user makes (the contract takes 1–50 campaigns a body). */
export const MAX_MANUAL_SEGMENTS = 20;
/** Longest segment name (it goes into campaign names of at most 200 characters). */
export const MAX_SEGMENT_NAME = 60;

export function defaultSegments(): Segment[] {
  return [
    { id: BRAND, kind: 'brand', name: '', match: 'EXACT' },
    { id: COMPETITOR, kind: 'competitor', name: '', match: 'EXACT' },
    { id: GENERIC, kind: 'generic', name: '', match: 'EXACT' },
  ];
}

/** Words a name is split into: lower case, letters and digits of any script. */
export function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/** Company suffixes and filler that name no brand. */
const NOT_BRAND = new Set([
  'inc', 'llc', 'ltd', 'limited', 'gmbh', 'co', 'corp', 'corporation', 'company', 'sa', 'ag', 'bv', 'plc', 'pty', 'oy', 'ab', 'srl', 'sas',
  'the', 'and', 'of', 'for', 'by', 'app', 'apps', 'studio', 'studios', 'games', 'labs', 'technologies', 'technology', 'software', 'mobile', 'media', 'group', 'digital', 'interactive',
]);

/**
 * The terms that make a keyword a brand keyword of `name` (an app's or a developer's): the
 * title before a separator ('Snapseed: Photo Editor' → 'snapseed') as a phrase, and its first
 * word when it is at least 4 letters and not a company suffix. A term is a list of words.
 */
export function brandTerms(name: string | null | undefined): string[][] {
  if (!name) return [];
  const title = name.split(/\s[-–—|]\s|[:|]/)[0] ?? name;
  const words = wordsOf(title).filter((w) => !NOT_BRAND.has(w));
  if (words.length === 0) return [];
  const terms: string[][] = [words];
  const first = words[0]!;
  if (words.length > 1 && first.length >= 4) terms.push([first]);
  return terms;
}

/** Whether the words of `keyword` hold `term` as consecutive whole words. */
export function containsTerm(keyword: readonly string[], term: readonly string[]): boolean {
  if (term.length === 0 || term.length > keyword.length) return false;
  for (let i = 0; i + term.length <= keyword.length; i += 1) {
    if (term.every((w, j) => keyword[i + j] === w)) return true;
  }
  // A brand written as one word in a search ('snapphoto').
  if (term.length > 1) return keyword.includes(term.join(''));
  return false;
}

export interface Classifier {
  brand: string[][];
  competitor: string[][];
}

/** The classifier of an app and the competitors named in the collected keywords' sources. */
export function classifierOf(app: { name: string; developer: string | null } | null, items: readonly Keyword[] | null): Classifier {
  const brand = [...brandTerms(app?.name), ...brandTerms(app?.developer)];
  const own = new Set(brand.map((t) => t.join(' ')));
  const names = new Set<string>();
  for (const item of items ?? []) for (const s of item.sources) if (s.type === 'competitor' && s.name) names.add(s.name);
  const competitor: string[][] = [];
  for (const name of names) for (const term of brandTerms(name)) if (!own.has(term.join(' '))) competitor.push(term);
  return { brand, competitor };
}

/** The built-in segment a keyword falls in: its own brand first, then a competitor's. */
export function classify(keyword: string, { brand, competitor }: Classifier): typeof BRAND | typeof COMPETITOR | typeof GENERIC {
  const words = wordsOf(keyword);
  if (brand.some((term) => containsTerm(words, term))) return BRAND;
  if (competitor.some((term) => containsTerm(words, term))) return COMPETITOR;
  return GENERIC;
}

/**
 * The selection with every keyword in a segment: the keywords already in an existing segment
 * stay (unless `reset`), the others are classified. Returns the same array when nothing changes.
 */
export function assignSegments(selected: PickedKeyword[], segments: readonly Segment[], classifier: Classifier, reset = false): PickedKeyword[] {
  const ids = new Set(segments.map((s) => s.id));
  let changed = false;
  const next = selected.map((p) => {
    if (!reset && p.group && ids.has(p.group)) return p;
    const group = classify(p.name, classifier);
    if (group === p.group) return p;
    changed = true;
    return { ...p, group };
  });
  return changed ? next : selected;
}

/** The selection with the keywords `names` moved to segment `to`. */
export function moveKeywords(selected: PickedKeyword[], names: ReadonlySet<string>, to: string): PickedKeyword[] {
  return selected.map((p) => (names.has(p.name) && p.group !== to ? { ...p, group: to } : p));
}

/** A new manual segment's id, unused among `segments`. */
export function newSegmentId(segments: readonly Segment[]): string {
  let n = segments.filter((s) => s.kind === 'manual').length + 1;
  const ids = new Set(segments.map((s) => s.id));
  while (ids.has(`manual-${n}`)) n += 1;
  return `manual-${n}`;
}

/** Why `name` cannot name a new or renamed segment, or null. */
export function segmentNameProblem(name: string, segments: readonly Segment[], labelOf: (s: Segment) => string, except: string | null = null): 'empty' | 'taken' | 'long' | null {
  const text = name.trim();
  if (text === '') return 'empty';
  if (text.length > MAX_SEGMENT_NAME) return 'long';
  const key = text.toLowerCase();
  if (segments.some((s) => s.id !== except && labelOf(s).trim().toLowerCase() === key)) return 'taken';
  return null;
}

/** The segments with a manual one removed; its keywords go back to their automatic segment. */
export function removeSegment(groups: KeywordGroups, selected: PickedKeyword[], id: string, classifier: Classifier): { groups: KeywordGroups; selected: PickedKeyword[] } {
  const segments = groups.segments.filter((s) => s.id !== id || s.kind !== 'manual');
  return {
    groups: { ...groups, segments, manualSegmentation: true },
    selected: selected.map((p) => (p.group === id ? { ...p, group: classify(p.name, classifier) } : p)),
  };
}

/** The keywords of each segment, in the selection's order. */
export function keywordsBySegment(selected: readonly PickedKeyword[], segments: readonly Segment[]): Map<string, PickedKeyword[]> {
  const map = new Map<string, PickedKeyword[]>(segments.map((s) => [s.id, []]));
  for (const p of selected) {
    const list = (p.group && map.get(p.group)) || map.get(GENERIC);
    list?.push(p);
  }
  return map;
}

/** The match types of a choice, Exact first. */
export function matchTypesOf(choice: MatchChoice): MatchType[] {
  if (choice === 'BOTH') return ['EXACT', 'BROAD'];
  return [choice];
}

/** The keyword groups for a result: the saved ones when made for it, else the default segments. */
export function groupsFor(saved: KeywordGroups | null, resultId: string | null): KeywordGroups {
  if (saved && (resultId === null || saved.id === resultId)) return saved;
  return { id: resultId ?? '', segments: defaultSegments(), manualSegmentation: false };
}
