import type { Keyword } from './api/types';
import type { PickedKeyword } from './saved';
import {
  assignSegments,
  brandTerms,
  classifierOf,
  classify,
  defaultSegments,
  groupsFor,
  keywordsBySegment,
  matchTypesOf,
  moveKeywords,
  newSegmentId,
  removeSegment,
  segmentNameProblem,
  type Segment,
} from './segmentation';

const kw = (name: string, sources: Keyword['sources'] = [{ type: 'hint' }]): Keyword => ({ name, popularity: 10, impressions: 0, sources, required: false, bidOn: [], negatedIn: [] });
const pick = (name: string, group: string | null = null): PickedKeyword => ({ name, impressions: 0, group });

const app = { name: 'Snapseed: Photo Editor', developer: 'Google LLC' };
const items = [
  kw('photo editor', [{ type: 'hint' }, { type: 'competitor', adamId: '2', name: 'VSCO: Photo & Video Editor' }]),
  kw('vsco filters', [{ type: 'competitor', adamId: '2', name: 'VSCO: Photo & Video Editor' }]),
  kw('lightroom', [{ type: 'competitor', adamId: '3', name: 'Adobe Lightroom Photo Editor' }]),
];
const classifier = classifierOf(app, items);

describe('brand terms', () => {
  it('take the title before a separator, and its first word when distinctive', () => {
    expect(brandTerms('Snapseed: Photo Editor')).toEqual([['snapseed']]);
    expect(brandTerms('Snap Photo')).toEqual([['snap', 'photo'], ['snap']]);
    expect(brandTerms('Google LLC')).toEqual([['google']]);
    expect(brandTerms('Adobe Lightroom Photo Editor')).toEqual([['adobe', 'lightroom', 'photo', 'editor'], ['adobe']]);
    expect(brandTerms(null)).toEqual([]);
    expect(brandTerms('Inc')).toEqual([]);
  });
});

describe('automatic segments', () => {
  it('puts the own brand first, then competitors named in the sources, then the rest', () => {
    expect(classify('snapseed', classifier)).toBe('brand');
    expect(classify('snapseed photo editor', classifier)).toBe('brand');
    expect(classify('google photos', classifier)).toBe('brand');
    expect(classify('vsco filters', classifier)).toBe('competitor');
    expect(classify('adobe editor', classifier)).toBe('competitor');
    // Found through a competitor but naming no one: a category term.
    expect(classify('photo editor', classifier)).toBe('generic');
    // Whole words only.
    expect(classify('snapseedish', classifier)).toBe('generic');
  });

  it('keeps the keywords already in a segment and classifies the others', () => {
    const segments = defaultSegments();
    const selected = [pick('snapseed'), pick('photo editor', 'brand'), pick('vsco filters', 'gone')];
    const next = assignSegments(selected, segments, classifier);
    expect(next.map((p) => p.group)).toEqual(['brand', 'brand', 'competitor']);
    expect(assignSegments(next, segments, classifier)).toBe(next);
    expect(assignSegments(next, segments, classifier, true).map((p) => p.group)).toEqual(['brand', 'generic', 'competitor']);
  });
});

describe('manual segmentation', () => {
  const segments: Segment[] = [...defaultSegments(), { id: 'manual-1', kind: 'manual', name: 'Filters', match: 'BOTH' }];
  const label = (s: Segment) => (s.kind === 'manual' ? s.name : s.kind);

  it('moves keywords, names new segments and refuses taken or long names', () => {
    const moved = moveKeywords([pick('a', 'brand'), pick('b', 'generic')], new Set(['b']), 'manual-1');
    expect(moved.map((p) => p.group)).toEqual(['brand', 'manual-1']);
    expect(newSegmentId(segments)).toBe('manual-2');
    expect(segmentNameProblem(' filters ', segments, label)).toBe('taken');
    expect(segmentNameProblem('Filters', segments, label, 'manual-1')).toBeNull();
    expect(segmentNameProblem('  ', segments, label)).toBe('empty');
    expect(segmentNameProblem('x'.repeat(61), segments, label)).toBe('long');
  });

  it('gives a removed segment’s keywords back to the automatic split', () => {
    const { groups, selected } = removeSegment({ id: 't1', segments, manualSegmentation: false }, [pick('vsco filters', 'manual-1'), pick('photo editor', 'generic')], 'manual-1', classifier);
    expect(groups.segments.map((s) => s.id)).toEqual(['brand', 'competitor', 'generic']);
    expect(groups.manualSegmentation).toBe(true);
    expect(selected.map((p) => p.group)).toEqual(['competitor', 'generic']);
    // Built-in segments stay.
    expect(removeSegment(groups, selected, 'brand', classifier).groups.segments).toHaveLength(3);
  });

  it('lists each segment’s keywords (unknown groups read as generic) and its match types', () => {
    const map = keywordsBySegment([pick('a', 'brand'), pick('b', null), pick('c', 'manual-1')], segments);
    expect(map.get('brand')?.map((p) => p.name)).toEqual(['a']);
    expect(map.get('generic')?.map((p) => p.name)).toEqual(['b']);
    expect(map.get('manual-1')?.map((p) => p.name)).toEqual(['c']);
    expect(matchTypesOf('BOTH')).toEqual(['EXACT', 'BROAD']);
    expect(matchTypesOf('BROAD')).toEqual(['BROAD']);
  });

  it('keeps the saved groups of the same result only', () => {
    const saved = { id: 't1', segments, manualSegmentation: true };
    expect(groupsFor(saved, 't1')).toBe(saved);
    expect(groupsFor(saved, 't2')).toEqual({ id: 't2', segments: defaultSegments(), manualSegmentation: false });
    expect(groupsFor(null, 't1').segments).toHaveLength(3);
  });
});
