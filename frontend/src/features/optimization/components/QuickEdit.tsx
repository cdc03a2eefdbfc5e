/**
 * Quick-edit cells (docs/product.md#2-tables, docs/product.md#5-money): a money column (daily
 * budget, default bid, CPA goal, keyword bid) edited in place — a number of at least 0 in the org's
 * currency, step 0.01 and no more decimals than the currency has; Enter saves, Escape cancels, a
 * spinner while Apple Ads answers, its refusal shown on the cell and in a red snackbar — and
 * a status switch (Enabled / Paused). Readers see the controls disabled with a tooltip (the
 * server answers them 403).
 */
import { ActionIcon, Loader, NumberInput, Text, Tooltip } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { cloneElement, useState, type ReactElement } from 'react';
import { t } from '@/i18n';
import { ApiError, errorMessage } from '@/lib/api-error';
import { currencyDigits, currencyOf, EMPTY, formatMoney } from '@/lib/format';
import { showSnackbar } from '@/lib/notifications';
import { checkMoney, refusalText } from '@/lib/money';
import { isEnabled, runQuickEdit, useQuickEdit, type QuickChange, type QuickEditScope } from '../api/quick-edit';
import type { ReportRow } from '../api/report';
import css from './cells.module.css';

export interface QuickEditProps {
  scope: QuickEditScope;
  row: ReportRow;
  /** Whether the signed-in user may change things (not a reader). */
  canEdit: boolean;
  /** What the controls are named for assistive tech (the row's name). */
  name: string;
}

/** The refusal of an edit as the cell shows it: the field's message, else the error's. */
export function refusalOf(error: unknown): string {
  if (error instanceof ApiError) return error.errors[0]?.message ?? error.message;
  return errorMessage(error);
}

type TargetProps = Record<string, unknown> & { onClick?: (event: unknown) => void };

/** Props passed in by a wrapping popover or menu target, merged into the child's own. */
function mergeTarget(own: TargetProps, target: TargetProps): TargetProps {
  const onClick = own.onClick && target.onClick ? (event: unknown) => (own.onClick?.(event), target.onClick?.(event)) : (target.onClick ?? own.onClick);
  return { ...target, onClick };
}

/**
 * A disabled control with the readers' tooltip around it, or the control as it is. It
 * passes what a popover or menu target gives it (its ref, click handler and ARIA
 * attributes) on to the control, so a guarded button opens its dropdown, anchored to it.
 */
export function ReaderGuard({ canEdit, children, ...target }: { canEdit: boolean; children: ReactElement<TargetProps> } & TargetProps) {
  if (canEdit) return cloneElement(children, mergeTarget(children.props, target));
  return (
    <Tooltip label={t('edit.readOnly')} withArrow>
      <span data-testid="read-only" {...target}>
        {children}
      </span>
    </Tooltip>
  );
}

function useEdit(scope: QuickEditScope, row: ReportRow, currency: string | null) {
  const mutation = useQuickEdit();
  const save = (change: QuickChange, onDone?: () => void) =>
    mutation.mutate(
      { scope, row, change },
      {
        onSuccess: () => onDone?.(),
        onError: (error) => showSnackbar(refusalText(error, change.field, currency), 'danger'),
      },
    );
  return { save, pending: mutation.isPending, error: mutation.error, reset: mutation.reset };
}

/** The amount to send: the input's number floored to the currency's digits, as text. */
export function amountText(value: number, currency: string | null): string {
  const digits = currencyDigits(currency);
  const factor = 10 ** digits;
  return (Math.floor(value * factor + 1e-9) / factor).toFixed(digits);
}

type MoneyProps = QuickEditProps & { field: string; label: string; currency: string | null };

function amountOf(row: ReportRow, field: string): number | null {
  const value = row[field];
  return typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : null;
}

/**
 * A money cell: its text as a button that opens the editor. The editor (and its mutation)
 * exists only while the cell is being edited, so a long page's cells stay plain elements.
 */
export function MoneyEditCell(props: MoneyProps) {
  const { row, canEdit, name, field, label, currency } = props;
  const current = amountOf(row, field);
  const [editing, setEditing] = useState(false);
  if (editing) return <MoneyEditor {...props} current={current} onClose={() => setEditing(false)} />;
  const text = current === null || Number.isNaN(current) ? EMPTY : formatMoney(current, currency);
  const button = (
    <button type="button" className={css.money} disabled={!canEdit} onClick={() => setEditing(true)} aria-label={`${t('edit.edit')} ${label}: ${name}`} data-testid={`edit-${field}`}>
      {text}
      {canEdit && <span className={css.pencil} aria-hidden />}
    </button>
  );
  return canEdit ? button : <ReaderGuard canEdit={false}>{button}</ReaderGuard>;
}

function MoneyEditor({ scope, row, name, field, label, currency, current, onClose }: MoneyProps & { current: number | null; onClose: () => void }) {
  const [draft, setDraft] = useState<number | string>(current ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const { save, pending, error, reset } = useEdit(scope, row, currency);
  const digits = currencyDigits(currency);
  const symbol = currencyOf(currency)?.symbol ?? '';
  // The form's own check first (the server's rules), then the server's refusal.
  const refusal = problem ?? (error ? refusalText(error, field, currency) : null);
  const submit = () => {
    if (pending) return;
    const checked = checkMoney(field, currency, draft);
    if ('problem' in checked) {
      setProblem(checked.problem);
      return;
    }
    if (current !== null && checked.amount === amountText(current, currency)) {
      onClose();
      return;
    }
    save({ field, amount: checked.amount }, onClose);
  };
  return (
    <div className={css.editor}>
      <NumberInput
        size="xs"
        w={140}
        autoFocus
        value={draft}
        onChange={(v) => {
          setDraft(v);
          setProblem(null);
          if (error) reset();
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            submit();
          } else if (e.key === 'Escape') {
            e.preventDefault();
            if (!pending) onClose();
          }
        }}
        onBlur={() => {
          if (!pending && !refusal) onClose();
        }}
        step={0.01}
        decimalScale={digits}
        thousandSeparator=" "
        prefix={symbol}
        hideControls
        readOnly={pending}
        aria-label={`${label}: ${name}`}
        error={refusal !== null}
        aria-describedby={refusal !== null ? `${field}-refusal` : undefined}
        rightSection={
          pending ? (
            <Loader size={12} aria-label={t('edit.saving')} />
          ) : (
            <ActionIcon size="xs" variant="subtle" aria-label={t('common.save')} onMouseDown={(e) => e.preventDefault()} onClick={submit}>
              <IconCheck size={12} />
            </ActionIcon>
          )
        }
        styles={{ input: { textAlign: 'right', height: 24, minHeight: 24 } }}
      />
      {refusal !== null && (
        <Text id={`${field}-refusal`} size="xs" c="red" className={css.editorError} role="alert">
          {refusal}
        </Text>
      )}
    </div>
  );
}

/**
 * The status switch: a native checkbox with the switch role (a long page shows one per row).
 * It keeps its own pending state while Apple Ads answers.
 */
export function StatusSwitch({ scope, row, canEdit, name, statusField }: QuickEditProps & { statusField: string }) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const on = isEnabled(row[statusField]);
  const toggle = (checked: boolean) => {
    setPending(true);
    runQuickEdit(queryClient, { scope, row, change: { field: 'status', status: checked ? 'ENABLED' : 'PAUSED' } })
      .catch((error: unknown) => showSnackbar(refusalOf(error), 'danger'))
      .finally(() => setPending(false));
  };
  const control = (
    <span className={css.inline}>
      <label className={css.switch}>
        <input
          type="checkbox"
          role="switch"
          checked={on}
          disabled={!canEdit || pending}
          onChange={(e) => toggle(e.currentTarget.checked)}
          aria-label={`${t(on ? 'edit.pause' : 'edit.enable')} ${name}`}
          data-testid="status-switch"
        />
        <span className={css.track}>
          <span className={css.thumb} />
        </span>
      </label>
      {pending && <Loader size={12} aria-label={t('edit.saving')} />}
    </span>
  );
  return canEdit ? control : <ReaderGuard canEdit={false}>{control}</ReaderGuard>;
}
