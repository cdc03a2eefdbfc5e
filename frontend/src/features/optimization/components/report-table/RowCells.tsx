/**
 * What a body row's cell shows: the name (linked for drilling down, with the campaign's
 * alerts and a Deleted or Syncing badge), "Syncing…" before a syncing row's numbers are
 * stored, the quick editors (money, status), a campaign's goal and rules editors, the tags,
 * else the formatted value.
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { CampaignAlerts, CampaignGoalEditor, CampaignRulesEditor, type Alert } from '@/features/rules';
import { t } from '@/i18n';
import { EMPTY } from '@/lib/format';
import type { ReportRow } from '../../api/report';
import { STATUS_FIELD } from '../../api/quick-edit';
import { Cell } from '../cells';
import css from '../cells.module.css';
import { MoneyEditCell, StatusSwitch } from '../QuickEdit';
import { TagCell } from '../TagCell';
import { hasNumbers, numeric, rowName } from './layout';
import { editableOf, rowSyncing, type RowContext } from './row-context';

export function SyncingText() {
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

/** What every cell of one row reads, worked out once for the row. */
export interface RowCellsState {
  editable: ReturnType<typeof editableOf>;
  /** Account and campaign group rows carry their own currency (accounts may differ). */
  currency: string | null;
  syncing: boolean;
  /** Before any of its numbers is stored, a syncing row shows "Syncing…", not zeros. */
  pending: boolean;
}

export function rowCellsState(row: ReportRow, context: RowContext): RowCellsState {
  const syncing = rowSyncing(row, context);
  return {
    editable: editableOf(row, context),
    currency: typeof row.currency === 'string' ? row.currency : context.currency,
    syncing,
    pending: syncing && !hasNumbers(row, context.defs),
  };
}

/**
 * The content of one body cell (a function, not a component: a long page renders rows as
 * they scroll into view, so a row is kept cheap, no component per cell but the editable ones).
 */
export function cellContent(
  context: RowContext,
  { editable, currency, syncing, pending }: RowCellsState,
  row: ReportRow,
  id: string,
  { def, label, money, status }: RowContext['columns'][number],
  sizer: boolean | undefined,
): ReactNode {
  const { level, rowLink } = context;
  const statusField = STATUS_FIELD[level];
  const value = row[def.field];
  if (editable && money) return <MoneyEditCell {...editable} field={def.field} label={label} currency={currency} />;
  if (editable && status && statusField && typeof row[statusField] === 'string')
    return (
      <span className={css.inline}>
        <StatusSwitch {...editable} statusField={statusField} />
        <Cell level={level} column={def} value={value} currency={currency} />
      </span>
    );
  if (def.kind === 'name') return <NameCell row={row} value={value} to={rowLink(row)} syncing={syncing} alerts={sizer ? undefined : context.alerts?.get(id)} />;
  if (pending && numeric(def)) return <SyncingText />;
  if (context.automation && !sizer && (def.field === 'rules' || (def.field === 'optimizationTypes' && context.automation.goal))) {
    const target = { scope: context.automation.scope, campaignId: id, campaignName: rowName(row, context.defs[0]?.field) ?? id, onSaved: context.automation.onSaved };
    return (
      <span className={css.inline}>
        <Cell level={level} column={def} value={value} currency={currency} />
        {def.field === 'rules' ? <CampaignRulesEditor target={target} value={value} /> : <CampaignGoalEditor target={target} value={value} />}
      </span>
    );
  }
  if (def.kind === 'tags' && context.tagging && !sizer) return <TagCell context={context.tagging} row={row} id={id} name={rowName(row, context.defs[0]?.field) ?? id} />;
  return <Cell level={level} column={def} value={value} currency={currency} />;
}
