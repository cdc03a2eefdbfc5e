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
 */
import { Badge, Box, Card, Checkbox, Group, Skeleton, Table, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import { getCoreRowModel, useReactTable, type ColumnDef as TableColumn, type Row as TableRow, type RowSelectionState } from '@tanstack/react-table';
import { useQueryClient } from '@tanstack/react-query';
import { useVirtualizer, type Range } from '@tanstack/react-virtual';
import { memo, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { CampaignAlerts, CampaignGoalEditor, CampaignRulesEditor, useCampaignAlerts, type Alert } from '@/features/rules';
import { t, tn } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { EMPTY, formatNumber } from '@/lib/format';
import { optimizationKeys } from '../api/keys';
import type { Converted, ReportResult, ReportRow } from '../api/report';
import { isEditableMoney, quickEditCall, STATUS_COLUMN, STATUS_FIELD, type QuickEditScope } from '../api/quick-edit';
import { columnOf, labelKey, mixesCurrencies, type ColumnDef } from '../columns';
import type { Level } from '../paths';
import { convertedNote } from '../reporting-currency';
import type { SortOrder, TableState } from '../url-state';
import { Cell, message } from './cells';
import { EmptyState } from './EmptyState';
import css from './cells.module.css';
import { MoneyEditCell, StatusSwitch } from './QuickEdit';
import { TableFooter } from './TableFooter';
import { TagCell, type TagCellContext } from './TagCell';

export interface ReportTableProps {
  level: Level;
  result: ReportResult | undefined;
  /** The address a row's name links to (drilling down), or null. */
  rowLink: (row: ReportRow) => string | null;
  sort: { field: string; order: SortOrder } | null;
  onSort: (sort: { field: string; order: SortOrder } | null) => void;
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
 * Pages longer than this render only the rows in view (TanStack Virtual), with spacer rows
 * standing for the others, so a page of 1,000 keywords scrolls as lightly as one of 50.
 */
export const VIRTUAL_FROM = 100;
/** A body row's height on a long page (fixed there, so rows need no measuring). */
const ROW_HEIGHT = 41;

/** Rows rendered beyond each edge of the view, at least. */
const OVERSCAN = 6;
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

/** Width of the selection column; the name column sticks right after it. */
const SELECT_WIDTH = 40;

const STICKY_BG = 'var(--mantine-color-body)';
const HEAD_BG = 'var(--mantine-color-gray-0)';

function nextSort(current: ReportTableProps['sort'], field: string): ReportTableProps['sort'] {
  if (current?.field !== field) return { field, order: 'desc' };
  return current.order === 'desc' ? { field, order: 'asc' } : null;
}

function Header({ column, sort, locked, onSort }: { column: ColumnDef; sort: ReportTableProps['sort']; locked: boolean; onSort: ReportTableProps['onSort'] }) {
  const active = sort?.field === column.field ? sort.order : null;
  const Icon = active === 'asc' ? IconArrowUp : active === 'desc' ? IconArrowDown : IconArrowsSort;
  const label = message(labelKey(column.field), column.field);
  return (
    <Group gap={6} wrap="nowrap">
      <UnstyledButton onClick={() => onSort(nextSort(sort, column.field))} aria-label={label} title={active ? t(active === 'asc' ? 'table.sortAsc' : 'table.sortDesc') : undefined}>
        <Group gap={4} wrap="nowrap">
          <Text span size="xs" fw={700} tt="uppercase" c={active ? 'blue' : 'dimmed'} style={{ whiteSpace: 'nowrap' }}>
            {label}
          </Text>
          <Icon size={13} color={active ? 'var(--mantine-color-blue-6)' : 'var(--mantine-color-gray-5)'} aria-hidden />
        </Group>
      </UnstyledButton>
      {locked && (
        <Tooltip label={t('table.lockedHint')} withArrow>
          <Badge size="xs" variant="gradient" gradient={{ from: 'violet', to: 'blue' }} tt="none">
            {t('table.growth')}
          </Badge>
        </Tooltip>
      )}
    </Group>
  );
}

function rowName(row: ReportRow, field: string | undefined): string | null {
  const value = field === undefined ? undefined : row[field];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : null;
}

const numeric = (column: ColumnDef) => ['money', 'percent', 'count', 'decimal'].includes(column.kind);


/** Sticky placement of the header's and totals' first columns (body rows use classes). */
const sticky = (index: number, background: string) =>
  index === 0 ? ({ position: 'sticky', left: SELECT_WIDTH, zIndex: 1, background, boxShadow: 'inset -1px 0 0 var(--mantine-color-gray-3)' } as const) : undefined;
const selectCell = (background: string) => ({ position: 'sticky', left: 0, zIndex: 1, background, width: SELECT_WIDTH, minWidth: SELECT_WIDTH, paddingRight: 0 }) as const;

/** What a body row's cells need besides the row (stable while the page is scrolled). */
interface RowContext {
  level: Level;
  defs: ColumnDef[];
  currency: string | null;
  /** The report's metrics are not all stored yet (entity levels: every row's). */
  syncing: boolean;
  rowLink: ReportTableProps['rowLink'];
  edit: ReportTableProps['edit'];
  tagging: ReportTableProps['tagging'];
  /** The alerts of the page's campaigns by campaign id (CAMPAIGNS only), shown by their names. */
  alerts: ReadonlyMap<string, Alert[]> | null;
  /**
   * Where editors change a campaign's goal optimisation and rules from its `optimizationTypes`
   * and `rules` cells (CAMPAIGNS of one campaign group only); `goal` false where the plan
   * locks the column (Growth).
   */
  automation: { scope: { accountId: string; orgId: string }; goal: boolean; onSaved: () => void } | null;
  /** Per column, built once per column set: its class names and label. */
  columns: { def: ColumnDef; className: string; label: string; money: boolean; status: boolean }[];
}

/** What makes a row editable in place, or null (a keyword needs its ad group). */
function editableOf(row: ReportRow, { edit, defs }: RowContext) {
  if (!edit || row.deleted === true) return null;
  if (quickEditCall({ scope: edit.scope, row, change: { field: 'status', status: 'PAUSED' } }) === null) return null;
  return { scope: edit.scope, row, canEdit: edit.canEdit, name: rowName(row, defs[0]?.field) ?? '' };
}

/** Whether any metric of `row` is a non-zero number (the row has data stored). */
function hasNumbers(row: ReportRow, defs: ColumnDef[]): boolean {
  return defs.some((def) => numeric(def) && typeof row[def.field] === 'number' && row[def.field] !== 0);
}

/** Whether `row`'s metrics are still being synced (its own flag on ACCOUNTS and ORGS). */
function rowSyncing(row: ReportRow, context: RowContext): boolean {
  return typeof row.syncing === 'boolean' ? row.syncing : context.syncing;
}

function SyncingText() {
  return (
    <span className={css.syncing} title={t('table.syncingHint')} data-testid="cell-syncing">
      {t('table.syncing')}
    </span>
  );
}

function NameCell({ row, value, to, syncing, alerts }: { row: ReportRow; value: unknown; to: string | null; syncing: boolean; alerts: Alert[] | undefined }) {
  const name = typeof value === 'string' && value !== '' ? value : EMPTY;
  return (
    <span className={css.nameCell}>
      {alerts && alerts.length > 0 && <CampaignAlerts alerts={alerts} campaignName={name} />}
      {to ? (
        <Link to={to} className={css.name}>
          {name}
        </Link>
      ) : (
        <span className={css.name}>{name}</span>
      )}
      {row.deleted === true && <span className={`${css.badge} ${css.badgeOutline}`}>{t('table.deleted')}</span>}
      {syncing && (
        <span className={`${css.badge} ${css.badgeOutline}`} title={t('table.syncingHint')} data-testid="row-syncing">
          {t('table.syncing')}
        </span>
      )}
    </span>
  );
}

interface BodyRowProps {
  context: RowContext;
  row: ReportRow;
  id: string;
  index: number;
  selected: boolean;
  canSelect: boolean;
  onSelect: ReportTableProps['onSelect'];
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
const BodyRow = memo(function BodyRow({ context, row, id, index, selected, canSelect, onSelect, fixedHeight, sizer, span }: BodyRowProps) {
  const { level, columns, rowLink } = context;
  // Account and campaign group rows carry their own currency (accounts may differ).
  const currency = typeof row.currency === 'string' ? row.currency : context.currency;
  const editable = editableOf(row, context);
  const statusField = STATUS_FIELD[level];
  // Before any of its numbers is stored, a syncing row shows "Syncing…", not zeros.
  const syncing = rowSyncing(row, context);
  const pending = syncing && !hasNumbers(row, context.defs);
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
      {columns.map(({ def, className, label, money, status }, column) => {
        if (span && column > 0 && (column < span.from || column > span.to)) {
          // The columns out of view are one empty cell either side of those drawn.
          if (column < span.from) return column === 1 ? <td key="before" colSpan={span.from - 1} className={css.gap} /> : null;
          return column === span.to + 1 ? <td key="after" colSpan={columns.length - 1 - span.to} className={css.gap} /> : null;
        }
        const value = row[def.field];
        let content;
        if (editable && money) content = <MoneyEditCell {...editable} field={def.field} label={label} currency={currency} />;
        else if (editable && status && statusField && typeof row[statusField] === 'string')
          content = (
            <span className={css.inline}>
              <StatusSwitch {...editable} statusField={statusField} />
              <Cell level={level} column={def} value={value} currency={currency} />
            </span>
          );
        else if (def.kind === 'name')
          content = <NameCell row={row} value={value} to={rowLink(row)} syncing={syncing} alerts={sizer ? undefined : context.alerts?.get(id)} />;
        else if (pending && numeric(def)) content = <SyncingText />;
        else if (context.automation && !sizer && (def.field === 'rules' || (def.field === 'optimizationTypes' && context.automation.goal))) {
          const target = { scope: context.automation.scope, campaignId: id, campaignName: rowName(row, context.defs[0]?.field) ?? id, onSaved: context.automation.onSaved };
          content = (
            <span className={css.inline}>
              <Cell level={level} column={def} value={value} currency={currency} />
              {def.field === 'rules' ? <CampaignRulesEditor target={target} value={value} /> : <CampaignGoalEditor target={target} value={value} />}
            </span>
          );
        } else if (def.kind === 'tags' && context.tagging && !sizer)
          content = <TagCell context={context.tagging} row={row} id={id} name={rowName(row, context.defs[0]?.field) ?? id} />;
        else content = <Cell level={level} column={def} value={value} currency={currency} />;
        return (
          <td key={def.field} className={className}>
            {content}
          </td>
        );
      })}
    </tr>
  );
});

interface RowsProps {
  span: ColumnSpan | null;
  rows: TableRow<ReportRow>[];
  virtual: boolean;
  /** The scroll box, once mounted (state, so its arrival renders the rows). */
  scroller: HTMLDivElement | null;
  context: RowContext;
  selected: ReadonlySet<string>;
  onSelect: ReportTableProps['onSelect'];
}

/** A spacer row standing for `height` pixels of rows not rendered. */
function Spacer({ height, columns }: { height: number; columns: number }) {
  if (height <= 0) return null;
  return (
    <tr aria-hidden data-spacer="">
      <td colSpan={columns} style={{ height, padding: 0, border: 0 }} />
    </tr>
  );
}

/**
 * The body rows. On a long page only the rows in view (and a few either side) render; this
 * component owns the virtualizer, so scrolling re-renders it alone, not the header or totals.
 */
function Rows({ rows, virtual, scroller, context, selected, onSelect, span }: RowsProps) {
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

/** The body columns drawn on a long page: those from..to (indexes of the visible columns). */
interface ColumnSpan {
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
function useColumnSpan(scroller: HTMLDivElement | null, widths: number[] | null): ColumnSpan | null {
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

/** The widest a money editor needs its column (the input and the cell's padding). */
const EDITOR_WIDTH = 140 + 2 * 16;

export function ReportTable({ level, result, rowLink, sort, onSort, stale, columns: fields, rowId, selected, onSelect, edit, tagging }: ReportTableProps) {
  const defs = useMemo(() => fields.map((field) => columnOf(level, field)), [level, fields]);
  const locked = useMemo(() => new Set(result?.locked ?? []), [result?.locked]);
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

  // A long page's columns are measured once per answer and column set, then frozen (fixed
  // table layout): rows scrolling into view neither move the columns nor make the browser
  // size every column again. The measuring layout holds, besides the rows in view, a
  // collapsed row of the page's widest values, so later rows fit the widths too.
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
      return index > 0 && context.columns[index - 1]?.money && edit ? Math.max(width, EDITOR_WIDTH) : width;
    });
    // Nothing laid out (a hidden table): stay with the automatic layout.
    const usable = measured.length === defs.length + 1 && measured.every((w) => w > 0);
    setFrozen({ key: freezeKey, defs, widths: usable ? measured : null });
  }, [measuring, freezeKey, defs, context, edit]);
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
            <Table.Tr key={group.id} ref={head}>
              <Table.Th style={selectCell(HEAD_BG)}>
                <Checkbox
                  size="xs"
                  aria-label={t('table.selectPage')}
                  checked={allOnPage}
                  indeterminate={someOnPage && !allOnPage}
                  disabled={pageIds.length === 0}
                  onChange={() => onSelect(pageIds, !allOnPage)}
                />
              </Table.Th>
              {group.headers.map((header, index) => {
                const def = defOf(header.column.id);
                const order = sort?.field === def.field ? (sort.order === 'asc' ? 'ascending' : 'descending') : undefined;
                return (
                  <Table.Th key={header.id} aria-sort={order} style={{ ...sticky(index, HEAD_BG), textAlign: numeric(def) ? 'right' : undefined }}>
                    <Box style={{ display: 'flex', justifyContent: numeric(def) ? 'flex-end' : 'flex-start' }}>
                      <Header column={def} sort={sort} locked={locked.has(def.field)} onSort={onSort} />
                    </Box>
                  </Table.Th>
                );
              })}
            </Table.Tr>
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
        {result?.totals && (
          <Table.Tfoot style={{ position: 'sticky', bottom: 0, zIndex: 2, background: HEAD_BG }}>
            <Table.Tr data-testid="totals-row">
              <Table.Td style={selectCell(HEAD_BG)} />
              {visible.map((column, index) => {
                const def = defOf(column.id);
                const totals: Record<string, unknown> | null | undefined = result.totals;
                const value = totals?.[def.field];
                return (
                  <Table.Td
                    key={column.id}
                    fw={700}
                    style={{ ...sticky(index, HEAD_BG), whiteSpace: 'nowrap', textAlign: numeric(def) ? 'right' : undefined, fontVariantNumeric: 'tabular-nums' }}
                  >
                    {index === 0 ? (
                      <>
                        {t('table.total')}{' '}
                        <Text span size="xs" c="dimmed" fw={400}>
                          ({tn('table.rowCount', result.total, formatNumber(result.total, 0))})
                        </Text>
                      </>
                    ) : result.syncing && numeric(def) && !hasNumbers(result.totals ?? {}, defs) ? (
                      <SyncingText />
                    ) : def.kind === 'money' && mixesCurrencies(level, currency) ? (
                      <span title={t('table.mixedCurrencies')}>{EMPTY}</span>
                    ) : numeric(def) && result.totals && def.field in result.totals ? (
                      <Cell level={level} column={def} value={value} currency={currency} />
                    ) : null}
                  </Table.Td>
                );
              })}
            </Table.Tr>
            {(result.subtotals ?? []).map((sub) => {
              const code = typeof sub.currency === 'string' ? sub.currency : null;
              return (
                <Table.Tr key={code ?? 'none'} data-testid="subtotal-row" data-currency={code ?? undefined}>
                  <Table.Td style={selectCell(HEAD_BG)} />
                  {visible.map((column, index) => {
                    const def = defOf(column.id);
                    return (
                      <Table.Td
                        key={column.id}
                        style={{ ...sticky(index, HEAD_BG), whiteSpace: 'nowrap', textAlign: numeric(def) ? 'right' : undefined, fontVariantNumeric: 'tabular-nums' }}
                      >
                        {index === 0 ? (
                          <Text span size="sm" fw={600}>
                            {t('table.subtotal').replace('{currency}', code ?? EMPTY)}
                          </Text>
                        ) : numeric(def) && def.field in sub ? (
                          <Cell level={level} column={def} value={sub[def.field]} currency={code} />
                        ) : null}
                      </Table.Td>
                    );
                  })}
                </Table.Tr>
              );
            })}
            {result.converted && <ConvertedRow converted={result.converted} level={level} defs={visible.map((c) => defOf(c.id))} />}
          </Table.Tfoot>
        )}
      </Table>
    </Box>
  );
}

/** The totals' money converted to the reporting currency, each amount titled with its rates. */
function ConvertedRow({ converted, level, defs }: { converted: Converted; level: Level; defs: ColumnDef[] }) {
  const note = convertedNote(converted);
  return (
    <Table.Tr data-testid="converted-row" data-currency={converted.currency}>
      <Table.Td style={selectCell(HEAD_BG)} />
      {defs.map((def, index) => (
        <Table.Td
          key={def.field}
          style={{ ...sticky(index, HEAD_BG), whiteSpace: 'nowrap', textAlign: numeric(def) ? 'right' : undefined, fontVariantNumeric: 'tabular-nums' }}
        >
          {index === 0 ? (
            <Text span size="sm" fw={600} fs="italic" title={note}>
              {`≈ ${t('table.subtotal').replace('{currency}', converted.currency)}`}
            </Text>
          ) : def.kind === 'money' ? (
            <span title={note}>
              {converted.totals[def.field] === null || converted.totals[def.field] === undefined ? EMPTY : '≈ '}
              <Cell level={level} column={def} value={converted.totals[def.field]} currency={converted.currency} />
            </span>
          ) : null}
        </Table.Td>
      ))}
    </Table.Tr>
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
