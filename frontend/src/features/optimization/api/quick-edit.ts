/**
 * Quick edits (docs/product.md#2-tables quick-edit columns, docs/product.md#7-the-calls-it-makes):
 * one campaign's daily budget or status (`PUT /api/asa/campaigns/update/{campaignId}`), one ad
 * group's default bid, CPA goal or status (`PUT /api/asa/groups/updatesV2/{campaignId}` with
 * `adGroupId`), one keyword's bid or status
 * (`PUT /api/asa/keywords/update/{campaignId}/{adGroupId}` with `keywordId`). The server sends the
 * change to Apple Ads and answers the entity's values after it; the table's rows are patched from
 * that answer at once and the report is then read again (the serving status and totals follow the
 * change).
 */
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { type z } from 'zod';
import { zEnvelopeItemEdited, zMoney } from '@/api/generated/zod.gen';
import { api } from '@/lib/api-client';
import { idIn, type EntityId } from '@/lib/ids';
import { ID_FIELD } from '../columns';
import type { Level } from '../paths';
import { optimizationKeys } from './keys';
import type { ReportResult, ReportRow } from './report';

/** The money columns each level edits in place. */
export const EDITABLE_MONEY: Partial<Record<Level, readonly string[]>> = {
  CAMPAIGNS: ['dailyBudget'],
  GROUPS: ['defaultBidAmount', 'cpaGoal'],
  KEYWORDS: ['cptBid'],
};

/** The row field holding the status a user sets (ENABLED / PAUSED; keywords show ACTIVE). */
export const STATUS_FIELD: Partial<Record<Level, string>> = {
  CAMPAIGNS: 'campaignStatus',
  GROUPS: 'adGroupStatus',
  KEYWORDS: 'keywordStatus',
};

/** The status column the switch sits in (the serving status, for campaigns and ad groups). */
export const STATUS_COLUMN: Partial<Record<Level, string>> = {
  CAMPAIGNS: 'servingStatus',
  GROUPS: 'adGroupServingStatus',
  KEYWORDS: 'keywordStatus',
};

export type UserStatus = 'ENABLED' | 'PAUSED';

export function isEditableMoney(level: Level, field: string): boolean {
  return EDITABLE_MONEY[level]?.includes(field) ?? false;
}

/** Whether a row's user status reads as enabled (keywords say ACTIVE). */
export function isEnabled(status: unknown): boolean {
  return status === 'ENABLED' || status === 'ACTIVE';
}

/** What one quick edit changes: a money column to an amount, or the status. */
export type QuickChange = { field: string; amount: string } | { field: 'status'; status: UserStatus };

export interface QuickEditScope {
  accountId: string;
  orgId: EntityId;
  level: Level;
  /** The campaign and ad group of the page, for rows that do not carry them. */
  campaignId: EntityId | null;
  adGroupId: EntityId | null;
}

export interface QuickEditInput {
  scope: QuickEditScope;
  row: ReportRow;
  change: QuickChange;
}

const moneySchema = zMoney.nullable();
const editedSchema = zEnvelopeItemEdited.shape.result;
export type Edited = z.infer<typeof editedSchema>['item'];

const idOf = idIn;

/** The body's name of a row's money column. */
const BODY_FIELD: Record<string, string> = { dailyBudget: 'dailyBudgetAmount' };

/** The route and body of `change` to `row`, or null when the row lacks the ids it needs. */
export function quickEditCall({ scope, row, change }: QuickEditInput): { path: string; body: Record<string, unknown> } | null {
  const query = new URLSearchParams({ accountId: scope.accountId, orgId: scope.orgId }).toString();
  const value: Record<string, unknown> = 'status' in change ? { status: change.status } : { [BODY_FIELD[change.field] ?? change.field]: change.amount };
  const campaignId = idOf(row, 'campaignId') ?? scope.campaignId;
  if (campaignId === null) return null;
  switch (scope.level) {
    case 'CAMPAIGNS':
      return { path: `/asa/campaigns/update/${campaignId}?${query}`, body: value };
    case 'GROUPS': {
      const adGroupId = idOf(row, 'adGroupId');
      return adGroupId === null ? null : { path: `/asa/groups/updatesV2/${campaignId}?${query}`, body: { adGroupId, ...value } };
    }
    case 'KEYWORDS': {
      const adGroupId = idOf(row, 'adGroupId') ?? scope.adGroupId;
      const keywordId = idOf(row, 'keywordId');
      return adGroupId === null || keywordId === null
        ? null
        : { path: `/asa/keywords/update/${campaignId}/${adGroupId}?${query}`, body: { keywordId, ...value } };
    }
    default:
      return null;
  }
}

export async function putQuickEdit(input: QuickEditInput): Promise<Edited> {
  const call = quickEditCall(input);
  if (!call) throw new Error(`No quick edit for this ${input.scope.level} row`);
  const { item } = await api.put(call.path, call.body, editedSchema);
  return item;
}

/** The row fields an answer's values change (money as numbers, as the report gives them). */
export function patchOf(level: Level, edited: Edited): ReportRow {
  const patch: ReportRow = {};
  for (const field of EDITABLE_MONEY[level] ?? []) {
    if (!(field in edited.values)) continue;
    const money = moneySchema.safeParse(edited.values[field]);
    if (money.success) patch[field] = money.data === null ? null : Number(money.data.amount);
  }
  const statusField = STATUS_FIELD[level];
  const status = edited.values.status;
  if (statusField && typeof status === 'string') {
    // The keyword table shows an enabled keyword as ACTIVE.
    patch[statusField] = level === 'KEYWORDS' && status === 'ENABLED' ? 'ACTIVE' : status;
  }
  return patch;
}

/** Applies `patch` to the row `id` of every cached report page of `level`. */
export function patchCachedRows(queryClient: QueryClient, level: Level, id: EntityId, patch: ReportRow) {
  const idField = ID_FIELD[level];
  if (!idField) return;
  queryClient.setQueriesData<ReportResult>({ queryKey: [...optimizationKeys.all, 'report'] }, (old) => {
    if (!old || !old.items.some((row) => row[idField] === id)) return old;
    return { ...old, items: old.items.map((row) => (row[idField] === id ? { ...row, ...patch } : row)) };
  });
}

/** What an edit's answer changes in the cache: its row at once, then every report page. */
export function applyEdited(queryClient: QueryClient, scope: QuickEditScope, edited: Edited) {
  patchCachedRows(queryClient, scope.level, edited.id, patchOf(scope.level, edited));
  void queryClient.invalidateQueries({ queryKey: [...optimizationKeys.all, 'report'] });
}

/**
 * Sends a quick edit and applies its answer. For controls that show every row of a long
 * page (the status switch): they keep their pending state themselves instead of holding a
 * mutation observer per row.
 */
export async function runQuickEdit(queryClient: QueryClient, input: QuickEditInput): Promise<Edited> {
  const edited = await putQuickEdit(input);
  applyEdited(queryClient, input.scope, edited);
  return edited;
}

export function useQuickEdit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: putQuickEdit,
    onSuccess: (edited, { scope }) => applyEdited(queryClient, scope, edited),
  });
}
