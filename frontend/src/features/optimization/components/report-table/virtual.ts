/**
 * A long page of the report table (TanStack Virtual): only the rows in view render, in
 * whole blocks; the column widths are measured once per answer and column set, then frozen,
 * with a collapsed row of the page's widest values so later rows fit them too; and only the
 * columns in view (and a margin) are drawn while it scrolls sideways.
 */
import type { Range } from '@tanstack/react-virtual';
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { ReportResult, ReportRow } from '../../api/report';
import type { ColumnDef } from '../../columns';
import type { RowContext } from './row-context';

/**
 * Pages longer than this render only the rows in view (TanStack Virtual), with spacer rows
 * standing for the others, so a page of 1,000 keywords scrolls as lightly as one of 50.
 */
export const VIRTUAL_FROM = 100;
/** A body row's height on a long page (fixed there, so rows need no measuring). */
export const ROW_HEIGHT = 41;

/** Rows rendered beyond each edge of the view, at least. */
export const OVERSCAN = 6;
/** Rendered rows start and end on multiples of this (see `blockRange`). */
const BLOCK = 8;

/**
 * The rows to render: those in view and `overscan` more either side, widened to whole
 * blocks of BLOCK rows. The rendered set then changes once a block has scrolled by instead
 * of every row, and each change (the table's layout and paint, whatever the rows) is paid
 * once a block rather than once a row.
 */
export function blockRange({ startIndex, endIndex, overscan, count }: Range): number[] {
  const start = Math.max(0, Math.floor((startIndex - overscan) / BLOCK) * BLOCK);
  const end = Math.min(count - 1, Math.ceil((endIndex + overscan + 1) / BLOCK) * BLOCK - 1);
  return Array.from({ length: end - start + 1 }, (_, i) => start + i);
}

/** A rough width of a value as its cell shows it (characters), to find a column's widest. */
function breadth(value: unknown): number {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.floor(Math.log10(Math.abs(value) + 1)) + (value < 0 ? 2 : 1) : 0;
  if (typeof value === 'string') {
    const number = Number(value);
    return value.trim() !== '' && Number.isFinite(number) ? breadth(number) : value.length;
  }
  if (Array.isArray(value)) {
    return (value as unknown[]).reduce<number>((sum, v) => sum + 2 + (typeof v === 'object' && v !== null && 'name' in v ? String(v.name).length : breadth(v)), 0);
  }
  return value === null || value === undefined ? 0 : 4;
}

/**
 * A row of the page's widest values, one per column (the first row's other fields, so it is
 * editable as the page's rows are): laid out once, it sizes the columns for every row.
 */
export function widestRow(items: ReportRow[], defs: ColumnDef[]): ReportRow | null {
  if (items.length === 0) return null;
  const row: ReportRow = { ...items[0]! };
  for (const def of defs) {
    let best = -1;
    for (const item of items) {
      const b = breadth(item[def.field]);
      if (b > best) {
        best = b;
        row[def.field] = item[def.field];
      }
    }
  }
  return row;
}

/** The widest a money editor needs its column (the input and the cell's padding). */
const EDITOR_WIDTH = 140 + 2 * 16;

/**
 * A long page's column widths (null: the automatic layout), measured once per answer and
 * column set from the header row (`head`) and then frozen (fixed table layout): rows
 * scrolling into view neither move the columns nor make the browser size every column
 * again. While measuring, `sizer` is the collapsed row of the page's widest values the
 * layout holds besides the rows in view, so later rows fit the widths too.
 */
export function useFrozenWidths({ virtual, result, defs, context, editing }: { virtual: boolean; result: ReportResult | undefined; defs: ColumnDef[]; context: RowContext; editing: boolean }) {
  const freezeKey = virtual ? result : null;
  const [frozen, setFrozen] = useState<{ key: unknown; defs: ColumnDef[]; widths: number[] | null } | null>(null);
  const widths = frozen !== null && frozen.key === freezeKey && frozen.defs === defs ? frozen.widths : null;
  const measuring = virtual && (frozen === null || frozen.key !== freezeKey || frozen.defs !== defs);
  const sizer = useMemo(() => (measuring && result ? widestRow(result.items, defs) : null), [measuring, result, defs]);
  const head = useRef<HTMLTableRowElement>(null);
  useLayoutEffect(() => {
    if (!measuring) return;
    const cells = [...(head.current?.cells ?? [])];
    const measured = cells.map((cell, index) => {
      const width = cell.getBoundingClientRect().width;
      return index > 0 && context.columns[index - 1]?.money && editing ? Math.max(width, EDITOR_WIDTH) : width;
    });
    // Nothing laid out (a hidden table): stay with the automatic layout.
    const usable = measured.length === defs.length + 1 && measured.every((w) => w > 0);
    setFrozen({ key: freezeKey, defs, widths: usable ? measured : null });
  }, [measuring, freezeKey, defs, context, editing]);
  return { widths, sizer, head };
}

/** The body columns drawn on a long page: those from..to (indexes of the visible columns). */
export interface ColumnSpan {
  from: number;
  to: number;
}

/** Pixels of columns drawn beyond either side of the view. */
const COLUMN_MARGIN = 320;

/**
 * The columns in view (and COLUMN_MARGIN either side) of a table whose column widths are
 * `widths` (the selection column's first, then the sticky name column's), scrolled by
 * `scrollLeft` in a box `viewWidth` wide. The name column is always drawn.
 */
export function columnSpan(widths: number[], scrollLeft: number, viewWidth: number): ColumnSpan {
  const stuck = (widths[0] ?? 0) + (widths[1] ?? 0);
  const low = scrollLeft + stuck - COLUMN_MARGIN;
  const high = scrollLeft + viewWidth + COLUMN_MARGIN;
  let from = widths.length;
  let to = 0;
  let left = stuck;
  for (let i = 2; i < widths.length; i += 1) {
    const right = left + widths[i]!;
    if (right > low && left < high) {
      from = Math.min(from, i - 1);
      to = i - 1;
    }
    left = right;
  }
  return from > to ? { from: 1, to: 0 } : { from, to };
}

/**
 * The columns a long page draws while it scrolls sideways (null: all of them, while the
 * widths are not frozen). Changes only when a column comes into or out of the margin, so
 * scrolling down never renders the rows again.
 */
export function useColumnSpan(scroller: HTMLDivElement | null, widths: number[] | null): ColumnSpan | null {
  const [span, setSpan] = useState<ColumnSpan | null>(null);
  useLayoutEffect(() => {
    if (!scroller || !widths) return;
    const update = () => {
      const next = columnSpan(widths, scroller.scrollLeft, scroller.clientWidth);
      setSpan((current) => (current && current.from === next.from && current.to === next.to ? current : next));
    };
    update();
    scroller.addEventListener('scroll', update, { passive: true });
    const observer = new ResizeObserver(update);
    observer.observe(scroller);
    return () => {
      scroller.removeEventListener('scroll', update);
      observer.disconnect();
    };
  }, [scroller, widths]);
  return widths ? span : null;
}
