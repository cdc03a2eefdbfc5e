/**
 * The report table's body rows. On a long page only the rows in view (and a few either
 * side) render, between spacer rows standing for the others; `Rows` owns the virtualizer,
 * so scrolling re-renders it alone, not the header or totals.
 */
import { Table } from '@mantine/core';
import type { Row as TableRow } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo } from 'react';
import { t } from '@/i18n';
import type { ReportRow } from '../../api/report';
import css from '../cells.module.css';
import { rowName } from './layout';
import type { RowContext } from './row-context';
import { cellContent, rowCellsState } from './RowCells';
import { blockRange, OVERSCAN, ROW_HEIGHT, type ColumnSpan } from './virtual';

type OnSelect = (ids: string[], on: boolean) => void;

interface BodyRowProps {
  context: RowContext;
  row: ReportRow;
  id: string;
  index: number;
  selected: boolean;
  canSelect: boolean;
  onSelect: OnSelect;
  /** Whether the row has the fixed height of a long page. */
  fixedHeight: boolean;
  /** A collapsed row that only sizes the columns (see `widestRow`). */
  sizer?: boolean;
  /** The columns drawn (the name column always), or null for all. */
  span: ColumnSpan | null;
}

/**
 * One body row, of plain elements with Mantine's table classes (a long page renders rows
 * as they scroll into view, so a row is kept cheap: no component per cell but the editable
 * ones). Memoised: scrolling re-renders the table for its spacers and the rows coming into
 * view, never the rows already shown.
 */
export const BodyRow = memo(function BodyRow({ context, row, id, index, selected, canSelect, onSelect, fixedHeight, sizer, span }: BodyRowProps) {
  const { columns } = context;
  const cells = rowCellsState(row, context);
  return (
    <tr
      className={sizer ? css.sizer : `${css.row} ${fixedHeight ? css.fixedRow : ''} ${selected ? css.selected : ''}`}
      aria-hidden={sizer || undefined}
      data-index={fixedHeight ? index : undefined}
      data-selected={selected || undefined}
    >
      <td className={`${Table.classes.td} ${css.select}`}>
        {canSelect && (
          <input
            type="checkbox"
            className={css.checkbox}
            aria-label={`${t('table.selectRow')} ${rowName(row, context.defs[0]?.field) ?? id}`}
            checked={selected}
            onChange={(e) => onSelect([id], e.currentTarget.checked)}
          />
        )}
      </td>
      {columns.map((col, column) => {
        if (span && column > 0 && (column < span.from || column > span.to)) {
          // The columns out of view are one empty cell either side of those drawn.
          if (column < span.from) return column === 1 ? <td key="before" colSpan={span.from - 1} className={css.gap} /> : null;
          return column === span.to + 1 ? <td key="after" colSpan={columns.length - 1 - span.to} className={css.gap} /> : null;
        }
        return (
          <td key={col.def.field} className={col.className}>
            {cellContent(context, cells, row, id, col, sizer)}
          </td>
        );
      })}
    </tr>
  );
});

/** A spacer row standing for `height` pixels of rows not rendered. */
function Spacer({ height, columns }: { height: number; columns: number }) {
  if (height <= 0) return null;
  return (
    <tr aria-hidden data-spacer="">
      <td colSpan={columns} style={{ height, padding: 0, border: 0 }} />
    </tr>
  );
}

interface RowsProps {
  span: ColumnSpan | null;
  rows: TableRow<ReportRow>[];
  virtual: boolean;
  /** The scroll box, once mounted (state, so its arrival renders the rows). */
  scroller: HTMLDivElement | null;
  context: RowContext;
  selected: ReadonlySet<string>;
  onSelect: OnSelect;
}

export function Rows({ rows, virtual, scroller, context, selected, onSelect, span }: RowsProps) {
  // TanStack Virtual keeps its state outside React; the compiler leaves this unmemoised.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: virtual ? rows.length : 0,
    getScrollElement: () => scroller,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    rangeExtractor: blockRange,
    // Scrolling renders in React's own batches instead of one synchronous render per event.
    useFlushSync: false,
  });
  const items = virtual ? virtualizer.getVirtualItems() : [];
  const shown = virtual ? items.map((item) => rows[item.index]!) : rows;
  const padTop = items.length > 0 ? items[0]!.start : 0;
  const padBottom = items.length > 0 ? virtualizer.getTotalSize() - items[items.length - 1]!.end : 0;
  const columns = context.defs.length + 1;
  return (
    <>
      <Spacer height={padTop} columns={columns} />
      {shown.map((row) => (
        <BodyRow
          key={row.id}
          context={context}
          row={row.original}
          id={row.id}
          index={row.index}
          selected={selected.has(row.id)}
          canSelect={row.getCanSelect()}
          onSelect={onSelect}
          fixedHeight={virtual}
          span={span}
        />
      ))}
      <Spacer height={padBottom} columns={columns} />
    </>
  );
}
