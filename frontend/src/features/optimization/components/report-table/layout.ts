/** What the report table's parts share: the sticky first columns, their backgrounds, and which columns are figures. */
import type { ReportRow } from '../../api/report';
import type { ColumnDef } from '../../columns';

/** Width of the selection column; the name column sticks right after it. */
export const SELECT_WIDTH = 40;

export const STICKY_BG = 'var(--mantine-color-body)';
export const HEAD_BG = 'var(--mantine-color-gray-0)';

/** Sticky placement of the header's and totals' first columns (body rows use classes). */
export const sticky = (index: number, background: string) =>
  index === 0 ? ({ position: 'sticky', left: SELECT_WIDTH, zIndex: 1, background, boxShadow: 'inset -1px 0 0 var(--mantine-color-gray-3)' } as const) : undefined;
export const selectCell = (background: string) => ({ position: 'sticky', left: 0, zIndex: 1, background, width: SELECT_WIDTH, minWidth: SELECT_WIDTH, paddingRight: 0 }) as const;

/** A footer cell's style: sticky when first, figures right-aligned in even widths. */
export const footCell = (index: number, def: ColumnDef) =>
  ({ ...sticky(index, HEAD_BG), whiteSpace: 'nowrap', textAlign: numeric(def) ? 'right' : undefined, fontVariantNumeric: 'tabular-nums' }) as const;

export const numeric = (column: ColumnDef) => ['money', 'percent', 'count', 'decimal'].includes(column.kind);

/** A row's name (its first column's value), or null. */
export function rowName(row: ReportRow, field: string | undefined): string | null {
  const value = field === undefined ? undefined : row[field];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : null;
}

/** Whether any metric of `row` is a non-zero number (the row has data stored). */
export function hasNumbers(row: ReportRow, defs: ColumnDef[]): boolean {
  return defs.some((def) => numeric(def) && typeof row[def.field] === 'number' && row[def.field] !== 0);
}
