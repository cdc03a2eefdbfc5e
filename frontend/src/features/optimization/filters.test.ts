import { METRIC_NAMES } from '@/lib/report-catalog';
import { emptyFilter, FILTER_METRICS, filterTypesOf, isValidFilter, readFilters, toWire, wireFilters, writeFilters, type Filter } from './filters';

describe('filter validity (spec §5)', () => {
  it.each<[string, Filter, boolean]>([
    ['text with a condition', { type: 'name', condition: 'contains', value: 'fit' }, true],
    ['blank text', { type: 'name', condition: 'contains', value: '   ' }, false],
    ['text without condition', { type: 'name', value: 'fit' }, false],
    ['a list', { type: 'status', value: ['RUNNING'] }, true],
    ['an empty list', { type: 'status', value: [] }, false],
    ['a list with an empty entry', { type: 'country', value: ['US', ''] }, false],
    ['a metric', { type: 'metrics', metric: 'taps', condition: '>', value: 10 }, true],
    ['a metric typed as text', { type: 'metrics', metric: 'taps', condition: '>', value: '10' }, true],
    ['a metric without a number', { type: 'metrics', metric: 'taps', condition: '>', value: '' }, false],
    ['a metric that is not a number', { type: 'metrics', metric: 'taps', condition: '>', value: 'many' }, false],
    ['a metric without metric', { type: 'metrics', condition: '>', value: 1 }, false],
    ['a text condition on a metric', { type: 'metrics', metric: 'taps', condition: 'contains', value: 1 }, false],
    ['a range', { type: 'metrics', metric: 'taps', condition: '><', value: [1, 5] }, true],
    ['a reversed range', { type: 'metrics', metric: 'taps', condition: '><', value: [5, 1] }, false],
    ['a half range', { type: 'metrics', metric: 'taps', condition: '<>', value: [1, ''] as unknown as number[] }, false],
  ])('%s', (_name, filter, valid) => {
    expect(isValidFilter(filter)).toBe(valid);
  });

  it('starts new filters invalid', () => {
    for (const type of filterTypesOf('CAMPAIGNS')) expect(isValidFilter(emptyFilter(type))).toBe(false);
  });

  it('offers the filters each level can apply', () => {
    expect(filterTypesOf('CAMPAIGNS')).toEqual(['name', 'status', 'metrics', 'tag', 'country']);
    expect(filterTypesOf('KEYWORDS')).toEqual(['name', 'status', 'metrics', 'tag']);
    expect(filterTypesOf('NEGATIVE')).toEqual(['name', 'status']);
    expect(filterTypesOf('ADS')).toEqual(['name', 'status', 'metrics']);
  });
});

describe('the wire shape (spec §7)', () => {
  it('maps conditions to operators', () => {
    expect(toWire({ type: 'name', condition: 'contains', value: ' fit ' })).toEqual({ field: 'name', operator: 'CONTAINS', values: ['fit'] });
    expect(toWire({ type: 'name', condition: 'not_contains', value: 'x' }).operator).toBe('DOES_NOT_CONTAINS');
    expect(toWire({ type: 'name', condition: '=', value: 'x' }).operator).toBe('EQUALS');
    expect(toWire({ type: 'metrics', metric: 'taps', condition: '!=', value: 3 })).toEqual({ field: 'taps', operator: 'DOES_NOT_CONTAINS', values: [3] });
    expect(toWire({ type: 'metrics', metric: 'taps', condition: '<', value: '3' })).toEqual({ field: 'taps', operator: 'LESS_THAN', values: [3] });
    expect(toWire({ type: 'metrics', metric: 'localSpend', condition: '><', value: [1, 2.5] })).toEqual({ field: 'localSpend', operator: 'IN', values: [1, 2.5] });
    expect(toWire({ type: 'metrics', metric: 'taps', condition: '<>', value: [1, 2] }).operator).toBe('NOT_IN_RANGE');
    expect(toWire({ type: 'status', value: ['RUNNING', 'PAUSED'] })).toEqual({ field: 'status', operator: 'CONTAINS_ANY', values: ['RUNNING', 'PAUSED'] });
  });

  it('sends percentages as fractions', () => {
    expect(toWire({ type: 'metrics', metric: 'ttr', condition: '>', value: 5.23 }).values).toEqual([0.0523]);
    expect(toWire({ type: 'metrics', metric: 'conversionRate', condition: '><', value: [10, 50] }).values).toEqual([0.1, 0.5]);
  });

  it('sends only the valid filters', () => {
    expect(wireFilters([{ type: 'name', condition: 'contains', value: '' }, { type: 'tag', value: ['t1'] }])).toEqual([
      { field: 'tag', operator: 'CONTAINS_ANY', values: ['t1'] },
    ]);
  });
});

describe('filters in the address', () => {
  it('round trips valid filters and drops the rest', () => {
    const filters: Filter[] = [
      { type: 'name', condition: 'contains', value: 'fit' },
      { type: 'metrics', metric: 'taps', condition: '><', value: [1, 5] },
    ];
    expect(readFilters(writeFilters(filters))).toEqual(filters);
    expect(writeFilters([{ type: 'name', condition: 'contains', value: '' }])).toBeNull();
    expect(readFilters('[{"type":"name","condition":"contains","value":"a"},{"type":"evil"},{"type":"metrics","metric":"nope","condition":">","value":1}]')).toEqual([
      { type: 'name', condition: 'contains', value: 'a' },
    ]);
    expect(readFilters('not json')).toEqual([]);
    expect(readFilters('{"type":"name"}')).toEqual([]);
  });
});

describe('the metrics a filter offers (from the report catalog)', () => {
  it('are the catalog’s in its order, less the totals of installs, downloads, redownloads and CPA', () => {
    expect(FILTER_METRICS).toEqual(METRIC_NAMES.filter((m) => !['totalInstalls', 'totalNewDownloads', 'totalRedownloads', 'totalAvgCPA'].includes(m)));
    expect(FILTER_METRICS).toHaveLength(22);
  });
});
