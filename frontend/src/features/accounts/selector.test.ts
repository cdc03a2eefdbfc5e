import { COLUMN_SIZE, matchName, MAX_COLUMNED, SEARCH_FROM, showsSearch, toColumns } from './selector';

const items = (n: number) => Array.from({ length: n }, (_, i) => `Item ${i + 1}`);

describe('the account selector list rules (spec §9)', () => {
  it('shows a search box from 5 items', () => {
    expect(SEARCH_FROM).toBe(5);
    expect(showsSearch(4)).toBe(false);
    expect(showsSearch(5)).toBe(true);
    expect(showsSearch(40)).toBe(true);
  });

  it('splits lists into columns of 12', () => {
    expect(COLUMN_SIZE).toBe(12);
    expect(toColumns(items(12), 'accounts').map((c) => c.length)).toEqual([12]);
    expect(toColumns(items(13), 'accounts').map((c) => c.length)).toEqual([12, 1]);
    expect(toColumns(items(24), 'accounts').map((c) => c.length)).toEqual([12, 12]);
    expect(toColumns(items(36), 'groups').map((c) => c.length)).toEqual([12, 12, 12]);
    expect(toColumns(items(13), 'groups')[1]).toEqual(['Item 13']);
  });

  it('keeps one column above 24 accounts or 36 groups', () => {
    expect(MAX_COLUMNED).toEqual({ accounts: 24, groups: 36 });
    expect(toColumns(items(25), 'accounts').map((c) => c.length)).toEqual([25]);
    expect(toColumns(items(30), 'groups').map((c) => c.length)).toEqual([12, 12, 6]);
    expect(toColumns(items(37), 'groups').map((c) => c.length)).toEqual([37]);
    expect(toColumns([], 'groups')).toEqual([]);
  });

  it('finds names case-insensitively; a blank query keeps all', () => {
    const names = ['Main US', 'Games EU', 'main jp'];
    expect(matchName(names, 'MAIN', (n) => n)).toEqual(['Main US', 'main jp']);
    expect(matchName(names, '  ', (n) => n)).toEqual(names);
    expect(matchName(names, 'nothing', (n) => n)).toEqual([]);
  });
});
