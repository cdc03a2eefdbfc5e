import type { Keyword, SourceType } from './api/types';
import { filterKeywords, isFiltered, NO_FILTER, popularityDots, removeSelected, sourcesIn, toggleSelection } from './keyword-filter';

const kw = (name: string, popularity: number | null, sources: SourceType[] = ['hint'], extra: Partial<Keyword> = {}): Keyword => ({
  name,
  popularity,
  applePopularity: null,
  impressions: 0,
  sources: sources.map((type) => ({ type })),
  required: false,
  bidOn: [],
  negatedIn: [],
  ...extra,
});

const items = [kw('photo editor', 57, ['hint', 'app']), kw('snapseed', 80, ['competitor']), kw('collage maker', 12, ['apple']), kw('my photos', null, ['required'])];

describe('step 2 filters', () => {
  it('searches the text case-insensitively', () => {
    expect(filterKeywords(items, { ...NO_FILTER, search: 'PHOTO' }).map((k) => k.name)).toEqual(['photo editor', 'my photos']);
  });

  it('filters by popularity range, leaving out keywords without popularity', () => {
    expect(filterKeywords(items, { ...NO_FILTER, popularity: [50, 100] }).map((k) => k.name)).toEqual(['photo editor', 'snapseed']);
    expect(filterKeywords(items, NO_FILTER)).toHaveLength(4);
  });

  it('filters by source', () => {
    expect(filterKeywords(items, { ...NO_FILTER, sources: ['competitor', 'apple'] }).map((k) => k.name)).toEqual(['snapseed', 'collage maker']);
  });

  it('knows when a filter is on', () => {
    expect(isFiltered(NO_FILTER)).toBe(false);
    expect(isFiltered({ ...NO_FILTER, popularity: [1, 100] })).toBe(true);
    expect(isFiltered({ ...NO_FILTER, search: '  ' })).toBe(false);
  });

  it('lists the sources present in the contract order', () => {
    expect(sourcesIn(items)).toEqual(['required', 'hint', 'app', 'competitor', 'apple']);
  });
});

describe("Apple's 1–5 scale", () => {
  it("uses the server's value, else derives it from 1–100", () => {
    expect(popularityDots({ popularity: 57, applePopularity: 4 })).toBe(4);
    expect(popularityDots({ popularity: 20, applePopularity: null })).toBe(1);
    expect(popularityDots({ popularity: 21, applePopularity: undefined })).toBe(2);
    expect(popularityDots({ popularity: 100, applePopularity: null })).toBe(5);
    expect(popularityDots({ popularity: null, applePopularity: null })).toBe(0);
  });
});

describe('bulk selection', () => {
  it('adds and takes out keywords once each', () => {
    const some = toggleSelection([], items.slice(0, 2), true);
    expect(some.map((p) => p.name)).toEqual(['photo editor', 'snapseed']);
    expect(toggleSelection(some, items.slice(1, 3), true).map((p) => p.name)).toEqual(['photo editor', 'snapseed', 'collage maker']);
    expect(toggleSelection(some, items.slice(0, 1), false).map((p) => p.name)).toEqual(['snapseed']);
  });

  it('removes the selection from the list', () => {
    const result = removeSelected([{ name: 'a', impressions: 1 }], [{ name: 'b', impressions: 0 }]);
    expect(result).toEqual({ selected: [], removed: [{ name: 'b', impressions: 0 }, { name: 'a', impressions: 1 }] });
  });
});
