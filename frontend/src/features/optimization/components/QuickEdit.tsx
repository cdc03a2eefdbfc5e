/**
 * Quick-edit cells (spec §2, §5 editable money field): a money column (daily budget, default
 * bid, CPA goal, keyword bid) edited in place — a number of at least 0 in the org's currency,
 * step 0.01 and no more decimals than the currency has; Enter saves, Escape cancels, a
 * spinner while Apple Ads answers, its refusal shown on the cell and in a red snackbar — and
 * a status switch (Enabled / Paused). Readers see the controls disabled with a tooltip (the
 * server answers them 403).
 */
import { ActionIcon, Group, Loader, NumberInput, Switch, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconCheck, IconPencil } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { t } from '@/i18n';
import { ApiError, errorMessage } from '@/lib/api-error';
import { currencyDigits, currencyOf, EMPTY, formatMoney } from '@/lib/format';
import { showSnackbar } from '@/lib/notifications';
import { isEnabled, useQuickEdit, type QuickChange, type QuickEditScope } from '../api/quick-edit';
import type { ReportRow } from '../api/report';

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

/** A disabled control with the readers' tooltip around it, or the control as it is. */
export function ReaderGuard({ canEdit, children }: { canEdit: boolean; children: ReactNode }) {
  if (canEdit) return <>{children}</>;
  return (
    <Tooltip label={t('edit.readOnly')} withArrow>
      <span data-testid="read-only">{children}</span>
    </Tooltip>
  );
}

function useEdit(scope: QuickEditScope, row: ReportRow) {
  const mutation = useQuickEdit();
  const save = (change: QuickChange, onDone?: () => void) =>
    mutation.mutate(
      { scope, row, change },
      {
        onSuccess: () => onDone?.(),
        onError: (error) => showSnackbar(refusalOf(error), 'danger'),
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

export function MoneyEditCell({ scope, row, canEdit, name, field, label, currency }: QuickEditProps & { field: string; label: string; currency: string | null }) {
  const value = row[field];
  const current = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : null;
  const [draft, setDraft] = useState<number | string | null>(null);
  const { save, pending, error, reset } = useEdit(scope, row);
  const digits = currencyDigits(currency);
  const symbol = currencyOf(currency)?.symbol ?? '';
  const text = current === null || Number.isNaN(current) ? EMPTY : formatMoney(current, currency);

  if (draft === null) {
    return (
      <ReaderGuard canEdit={canEdit}>
        <UnstyledButton
          disabled={!canEdit}
          onClick={() => {
            reset();
            setDraft(current ?? '');
          }}
          aria-label={`${t('edit.edit')} ${label}: ${name}`}
          data-testid={`edit-${field}`}
          style={{ cursor: canEdit ? 'pointer' : 'not-allowed', borderBottom: canEdit ? '1px dashed var(--mantine-color-gray-5)' : undefined }}
        >
          <Group gap={4} wrap="nowrap" justify="flex-end">
            <Text span size="sm" c={canEdit ? undefined : 'dimmed'}>
              {text}
            </Text>
            {canEdit && <IconPencil size={12} color="var(--mantine-color-gray-5)" aria-hidden />}
          </Group>
        </UnstyledButton>
      </ReaderGuard>
    );
  }

  const refusal = error ? refusalOf(error) : null;
  const submit = () => {
    if (pending) return;
    const number = typeof draft === 'number' ? draft : Number(draft);
    if (draft === '' || Number.isNaN(number) || number < 0) return;
    if (current !== null && amountText(number, currency) === amountText(current, currency)) {
      setDraft(null);
      return;
    }
    save({ field, amount: amountText(number, currency) }, () => setDraft(null));
  };
  return (
    <NumberInput
      size="xs"
      w={140}
      autoFocus
      value={draft}
      onChange={(v) => {
        setDraft(v);
        if (error) reset();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          submit();
        } else if (e.key === 'Escape') {
          e.preventDefault();
          if (!pending) setDraft(null);
        }
      }}
      onBlur={() => {
        if (!pending && !refusal) setDraft(null);
      }}
      min={0}
      step={0.01}
      decimalScale={digits}
      allowNegative={false}
      thousandSeparator=" "
      prefix={symbol}
      hideControls
      readOnly={pending}
      aria-label={`${label}: ${name}`}
      error={refusal}
      rightSection={
        pending ? (
          <Loader size={12} aria-label={t('edit.saving')} />
        ) : (
          <ActionIcon size="xs" variant="subtle" aria-label={t('common.save')} onMouseDown={(e) => e.preventDefault()} onClick={submit}>
            <IconCheck size={12} />
          </ActionIcon>
        )
      }
      styles={{ input: { textAlign: 'right' }, error: { whiteSpace: 'normal', maxWidth: 220 } }}
    />
  );
}

export function StatusSwitch({ scope, row, canEdit, name, statusField }: QuickEditProps & { statusField: string }) {
  const { save, pending } = useEdit(scope, row);
  const on = isEnabled(row[statusField]);
  return (
    <ReaderGuard canEdit={canEdit}>
      <Group gap={4} wrap="nowrap">
        <Switch
          size="xs"
          checked={on}
          disabled={!canEdit || pending}
          onChange={(e) => save({ field: 'status', status: e.currentTarget.checked ? 'ENABLED' : 'PAUSED' })}
          aria-label={`${t(on ? 'edit.pause' : 'edit.enable')} ${name}`}
          data-testid="status-switch"
        />
        {pending && <Loader size={12} aria-label={t('edit.saving')} />}
      </Group>
    </ReaderGuard>
  );
}
