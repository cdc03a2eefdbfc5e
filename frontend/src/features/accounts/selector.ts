/**
 * The account selector's list rules (docs/product.md#2-account-selector,
 * docs/product.md#9-account-selector): a search box from 5 items, lists split into columns of 12,
 * but only up to 24 accounts or 36 campaign groups (longer lists stay one scrolling column).
 */
export const SEARCH_FROM = 5;
export const COLUMN_SIZE = 12;
export const MAX_COLUMNED = { accounts: 24, groups: 36 } as const;
export type ListKind = keyof typeof MAX_COLUMNED;

export function showsSearch(count: number): boolean {
  return count >= SEARCH_FROM;
}

/** The items in columns: chunks of 12 when the list is short enough, else one column. */
export function toColumns<T>(items: readonly T[], kind: ListKind): T[][] {
  if (items.length === 0) return [];
  if (items.length > MAX_COLUMNED[kind]) return [[...items]];
  const columns: T[][] = [];
  for (let i = 0; i < items.length; i += COLUMN_SIZE) columns.push(items.slice(i, i + COLUMN_SIZE));
  return columns;
}

/** Items whose name contains the query, case-insensitively; a blank query keeps all. */
export function matchName<T>(items: readonly T[], query: string, name: (item: T) => string): T[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...items];
  return items.filter((item) => name(item).toLowerCase().includes(q));
}
