/**
 * One page of a level's report as a table (TanStack Table, server-side sort and paging):
 * the columns of the selected column preset in its order, a Growth badge on locked
 * columns, a sticky header, selection checkbox and name column, and a totals row. Sorting
 * on a header asks the server (descending first, then ascending, then unsorted). Rows are
 * selected by their checkbox; the header's checkbox selects every row of the page.
 *
 * Rows whose metrics are not stored yet (a first sync running: the report's `syncing`, an
 * account's or campaign group's row `syncing`) show "Syncing…" instead of zeros until
 * numbers arrive. Over several currencies (All accounts, an account's campaign groups) the
 * totals row leaves money out and a "Total in <currency>" row follows per currency; with a
 * reporting currency a "≈ Total in <currency>" row gives the money converted, its cells
 * titled with the rates used.
 *
 * Its parts are in `report-table/`: the header (`Header.tsx`), the body rows (`Rows.tsx`)
 * and their cells (`RowCells.tsx`), the totals (`Totals.tsx`), and a long page's
 * virtualisation and frozen widths (`virtual.ts`).
 */
import { Box, Card, Skeleton, Table } from '@mantine/core';
import { getCoreRowModel, useReactTable, type ColumnDef as TableColumn, type RowSelectionState } from '@tanstack/react-table';
import { useQueryClient } from '@tanstack/react-query';
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { useCampaignAlerts, type Alert } from '@/features/rules';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { conversionGroupOf } from '@/lib/report-catalog';
import { optimizationKeys } from '../api/keys';
import type { ReportResult, ReportRow } from '../api/report';
import { isEditableMoney, STATUS_COLUMN, type QuickEditScope } from '../api/quick-edit';
import { columnOf, labelKey } from '../columns';
import type { Level } from '../paths';
import type { TableState } from '../url-state';
import { message } from './cells';
import css from './cells.module.css';
import { EmptyState } from './EmptyState';
import { HeaderRow, type ColumnLock, type Sort } from './report-table/Header';
import { HEAD_BG, numeric, selectCell, sticky, STICKY_BG } from './report-table/layout';
import type { RowContext } from './report-table/row-context';
import { BodyRow, Rows } from './report-table/Rows';
import { Totals } from './report-table/Totals';
import { useColumnSpan, useFrozenWidths, VIRTUAL_FROM } from './report-table/virtual';
import { TableFooter } from './TableFooter';
import type { TagCellContext } from './TagCell';

export interface ReportTableProps {
  level: Level;
  result: ReportResult | undefined;
  /** The address a row's name links to (drilling down), or null. */
  rowLink: (row: ReportRow) => string | null;
  sort: Sort;
  onSort: (sort: Sort) => void;
  /** Rows being replaced by a newer answer. */
  stale: boolean;
  /** The visible columns, in order (the name column first). */
  columns: string[];
  /** The id of a row (selection key), or null for a row that cannot be selected. */
  rowId: (row: ReportRow) => string | null;
  selected: ReadonlySet<string>;
  onSelect: (ids: string[], on: boolean) => void;
  /** Where quick edits go and whether the user may make them; none on levels without. */
  edit?: { scope: QuickEditScope; canEdit: boolean } | undefined;
  /** Where the rows' tags are edited from their tag cells (levels whose rows take tags). */
  tagging?: TagCellContext | undefined;
}

/**
 * How the plan locks each of the report's `locked` columns: Pro, with its message, when the
 * column is of a group the report's `lockedGroups` names (pro_limited's Conversions and Cohort),
 * else Growth.
 */
export function columnLocks(locked: readonly string[], lockedGroups: readonly { name: string; message: string }[]): Map<string, ColumnLock> {
  const groups = new Map(lockedGroups.map((g) => [g.name, g.message]));
  return new Map(
    locked.map((field): [string, ColumnLock] => {
      const group = conversionGroupOf(field);
      const message = group === null ? undefined : groups.get(group);
      return [field, message === undefined ? { plan: 'growth' } : { plan: 'pro', message }];
    }),
  );
}

export function ReportTable({ level, result, rowLink, sort, onSort, stale, columns: fields, rowId, selected, onSelect, edit, tagging }: ReportTableProps) {
  const defs = useMemo(() => fields.map((field) => columnOf(level, field)), [level, fields]);
  const locked = useMemo(() => new Set(result?.locked ?? []), [result?.locked]);
  const locks = useMemo(() => columnLocks(result?.locked ?? [], result?.lockedGroups ?? []), [result?.locked, result?.lockedGroups]);
  const pageIds = useMemo(() => (result?.items ?? []).map(rowId).filter((id): id is string => id !== null), [result?.items, rowId]);
  const rowSelection = useMemo<RowSelectionState>(() => Object.fromEntries([...selected].map((id) => [id, true])), [selected]);
  const allOnPage = pageIds.length > 0 && pageIds.every((id) => selected.has(id));
  const someOnPage = pageIds.some((id) => selected.has(id));
  const currency = result?.currency ?? null;
  // The campaigns' alerts (docs/api/rules.md Alerts), asked once for the page.
  const alertsQuery = useCampaignAlerts(level === 'CAMPAIGNS' ? pageIds : []);
  const alerts = useMemo(() => {
    if (level !== 'CAMPAIGNS' || !alertsQuery.data) return null;
    const byCampaign = new Map<string, Alert[]>();
    for (const alert of alertsQuery.data) {
      if (!alert.campaignId) continue;
      byCampaign.set(alert.campaignId, [...(byCampaign.get(alert.campaignId) ?? []), alert]);
    }
    return byCampaign;
  }, [level, alertsQuery.data]);
  const queryClient = useQueryClient();
  const canAutomate = level === 'CAMPAIGNS' && edit?.canEdit === true && edit.scope.orgId !== '';
  const goalLocked = locked.has('optimizationTypes');
  const automation = useMemo<RowContext['automation']>(
    () =>
      canAutomate && edit
        ? {
            scope: { accountId: edit.scope.accountId, orgId: String(edit.scope.orgId) },
            goal: !goalLocked,
            onSaved: () => void queryClient.invalidateQueries({ queryKey: [...optimizationKeys.all, 'report'] }),
          }
        : null,
    [canAutomate, edit, goalLocked, queryClient],
  );
  const context = useMemo<RowContext>(
    () => ({
      level,
      defs,
      currency,
      syncing: result?.syncing ?? false,
      rowLink,
      edit,
      tagging,
      alerts,
      automation,
      columns: defs.map((def, index) => ({
        def,
        className: [Table.classes.td, css.cell, index === 0 ? css.sticky : '', numeric(def) ? css.numeric : ''].join(' '),
        label: message(labelKey(def.field), def.field),
        money: def.kind === 'money' && isEditableMoney(level, def.field),
        status: def.field === STATUS_COLUMN[level],
      })),
    }),
    [level, defs, currency, result?.syncing, rowLink, edit, tagging, alerts, automation],
  );
  // Columns carry only ids and accessors; headers and cells are rendered below from the
  // column definitions, so a new sort or answer never remounts them.
  const columns = useMemo<TableColumn<ReportRow>[]>(() => defs.map((def) => ({ id: def.field, accessorFn: (row) => row[def.field] })), [defs]);
  // TanStack Table's instance is rebuilt on every render; the compiler leaves this component
  // unmemoised, which is what the table needs.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: result?.items ?? [],
    columns,
    state: { rowSelection },
    getRowId: (row, index) => rowId(row) ?? `row-${index}`,
    enableRowSelection: (row) => rowId(row.original) !== null,
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    manualPagination: true,
  });
  const visible = table.getVisibleLeafColumns();
  const rows = table.getRowModel().rows;
  // A ref callback into state: the box mounts after the rows' first layout effect, and the
  // virtualizer must learn of it even when nothing else renders the table again.
  const [scroller, setScroller] = useState<HTMLDivElement | null>(null);
  // Each level (and each campaign's or ad group's) opens scrolled to its first columns:
  // the sideways scroll of the page left behind is not carried into the next.
  // A box just mounted is at its first columns already: it is left alone, since setting
  // (or reading) its scroll there would force a layout of the whole page in the middle of
  // its first render (issue 42 item 19).
  const { pathname } = useLocation();
  const view = `${pathname} ${level}`;
  const shown = useRef<{ scroller: HTMLDivElement | null; view: string }>({ scroller: null, view });
  useLayoutEffect(() => {
    const before = shown.current;
    shown.current = { scroller, view };
    if (scroller && before.scroller === scroller && before.view !== view) scroller.scrollLeft = 0;
  }, [scroller, view]);
  const virtual = rows.length >= VIRTUAL_FROM;
  const defOf = (id: string) => defs.find((d) => d.field === id)!;

  // A long page's columns are measured once per answer and column set, then frozen.
  const { widths, sizer, head } = useFrozenWidths({ virtual, result, defs, context, editing: edit !== undefined });
  const span = useColumnSpan(scroller, widths);

  return (
    <Box
      ref={setScroller}
      data-testid="report-table"
      data-virtual={virtual || undefined}
      className={css.scroller}
      style={{ opacity: stale ? 0.6 : 1 }}
    >
      <Table
        highlightOnHover
        verticalSpacing={8}
        horizontalSpacing="md"
        style={widths ? { minWidth: '100%', width: widths.reduce((a, b) => a + b, 0), tableLayout: 'fixed' } : { minWidth: '100%', width: 'max-content' }}
        aria-busy={stale || !result}
      >
        {widths && (
          <colgroup>
            {widths.map((width, index) => (
              <col key={index} style={{ width }} />
            ))}
          </colgroup>
        )}
        <Table.Thead style={{ position: 'sticky', top: 0, zIndex: 2, background: HEAD_BG }}>
          {table.getHeaderGroups().map((group) => (
            <HeaderRow
              key={group.id}
              rowRef={head}
              defs={group.headers.map((header) => defOf(header.column.id))}
              sort={sort}
              onSort={onSort}
              locks={locks}
              pageIds={pageIds}
              allOnPage={allOnPage}
              someOnPage={someOnPage}
              onSelect={onSelect}
            />
          ))}
          {sizer && (
            <BodyRow context={context} row={sizer} id="sizer" index={-1} selected={false} canSelect onSelect={onSelect} fixedHeight={false} sizer span={null} />
          )}
        </Table.Thead>
        {/* A plain body: Mantine's tbody class styles rows by position (striping, last row),
            so every row inserted at the top of a scrolled page would restyle all the others. */}
        <tbody>
          {result
            ? <Rows rows={rows} virtual={virtual} scroller={scroller} context={context} selected={selected} onSelect={onSelect} span={span} />
            : Array.from({ length: 8 }, (_, r) => (
                <Table.Tr key={r} data-testid="skeleton-row">
                  <Table.Td style={selectCell(STICKY_BG)} />
                  {visible.map((column, index) => (
                    <Table.Td key={column.id} style={sticky(index, STICKY_BG)}>
                      <Skeleton h={14} w={index === 0 ? 160 : 64} radius="sm" />
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
        </tbody>
        {result?.totals && <Totals level={level} result={result} defs={visible.map((c) => defOf(c.id))} currency={currency} />}
      </Table>
    </Box>
  );
}

export interface ReportTableSectionProps extends Omit<ReportTableProps, 'result' | 'stale' | 'sort'> {
  report: { data?: ReportResult | undefined; error: unknown; isPlaceholderData: boolean };
  /** Why the view is empty (nothing synced, no data in the range, filters matching nothing). */
  emptyText: { title: string; text: string };
  state: TableState;
  onState: (next: Partial<TableState>) => void;
}

/**
 * A level's table as every report screen shows it: the report's error, or why it is empty,
 * or the table in its card with the rows shown, page size and pages under it.
 */
export function ReportTableSection({ report, emptyText, state, onState, ...table }: ReportTableSectionProps) {
  const result = report.data;
  if (report.error) return <EmptyState title={t('error.screenTitle')} text={errorMessage(report.error)} />;
  if (result && result.items.length === 0 && result.total === 0) return <EmptyState {...emptyText} />;
  return (
    <>
      <Card withBorder padding={0}>
        <ReportTable {...table} result={result} sort={state.sort} stale={report.isPlaceholderData} />
      </Card>
      {result && <TableFooter total={result.total} state={state} onChange={onState} />}
    </>
  );
}
