/** What a body row's cells need besides the row (stable while the page is scrolled). */
import type { Alert } from '@/features/rules';
import type { ReportRow } from '../../api/report';
import { quickEditCall, type QuickEditScope } from '../../api/quick-edit';
import type { ColumnDef } from '../../columns';
import type { Level } from '../../paths';
import type { TagCellContext } from '../TagCell';
import { rowName } from './layout';

export interface RowContext {
  level: Level;
  defs: ColumnDef[];
  currency: string | null;
  /** The report's metrics are not all stored yet (entity levels: every row's). */
  syncing: boolean;
  /** The address a row's name links to (drilling down), or null. */
  rowLink: (row: ReportRow) => string | null;
  /** Where quick edits go and whether the user may make them; none on levels without. */
  edit: { scope: QuickEditScope; canEdit: boolean } | undefined;
  /** Where the rows' tags are edited from their tag cells (levels whose rows take tags). */
  tagging: TagCellContext | undefined;
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
export function editableOf(row: ReportRow, { edit, defs }: RowContext) {
  if (!edit || row.deleted === true) return null;
  if (quickEditCall({ scope: edit.scope, row, change: { field: 'status', status: 'PAUSED' } }) === null) return null;
  return { scope: edit.scope, row, canEdit: edit.canEdit, name: rowName(row, defs[0]?.field) ?? '' };
}

/** Whether `row`'s metrics are still being synced (its own flag on ACCOUNTS and ORGS). */
export function rowSyncing(row: ReportRow, context: RowContext): boolean {
  return typeof row.syncing === 'boolean' ? row.syncing : context.syncing;
}
