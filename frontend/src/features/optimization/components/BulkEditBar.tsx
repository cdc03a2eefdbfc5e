/**
 * The bulk-edit header (docs/product.md#2-layout bulk edit headers), shown while rows are selected:
 * one money field of every selected row set, raised or lowered by an amount or a percentage
 * (with an optional floor and cap), the rows paused or enabled, a tag put on them, or (keywords
 * and search terms) their texts added as negative keywords of their campaign or ad group with
 * a match type. An edit runs as a background task: its progress shows here and in the background-tasks
 * popover, and once it ends the rows Apple Ads refused are listed with its message.
 */
import { Button, Card, Divider, Group, NumberInput, Select, Stack, Text } from '@mantine/core';
import { IconCopy, IconPlayerPause, IconPlayerPlay } from '@tabler/icons-react';
import { useState } from 'react';
import { t, tn } from '@/i18n';
import { currencyDigits, currencyOf, formatMoney, formatNumber } from '@/lib/format';
import { isEntityId, type EntityId } from '@/lib/ids';
import { showSnackbar } from '@/lib/notifications';
import {
  bulkFields,
  NEGATIVE_SOURCES,
  tagTypeOf,
  useBulkEdit,
  type BulkAction,
  type BulkEditInput,
} from '../api/bulk-edit';
import type { ReportRow } from '../api/report';
import { fill, moneyLabel, moneyProblem, refusalText } from '@/lib/money';
import type { Level } from '../paths';
import { BulkTask } from './bulk-edit/BulkTask';
import { LabelledChoice } from './bulk-edit/LabelledChoice';
import { negativeItems, NegativesMenu } from './bulk-edit/NegativesMenu';
import { TagMenu } from './bulk-edit/TagMenu';
import { CampaignCopyModal } from './CampaignCopyModal';
import { amountText, ReaderGuard } from './QuickEdit';

export interface BulkEditBarProps {
  level: Level;
  accountId: string;
  orgId: EntityId;
  campaignId: EntityId | null;
  currency: string | null;
  selected: ReadonlySet<string>;
  canEdit: boolean;
  /** The name of a row by its id (for the refused items), when it is on the page. */
  nameOf: (id: EntityId) => string | null;
  /** A row by its id, when it is on the page (negatives take their texts and places, tags their tags). */
  rowOf: (id: EntityId) => ReportRow | null;
  /** The page's ad group (keywords and search terms of one ad group), or null. */
  adGroupId: EntityId | null;
}

type Mode = 'set' | 'raise' | 'lower';

/** The bulk form's fields (NumberInput values: a number, or the text typed). */
export interface BulkForm {
  field: string;
  mode: Mode;
  unit: 'amount' | 'percent';
  value: number | string;
  floor: number | string;
  cap: number | string;
}

/** Most a percentage raises or lowers (the server's rule). */
const MAX_PERCENT = { raise: 1000, lower: 100 } as const;

/**
 * The request of the form's values, checked with the server's rules (`money.ts`): the amount
 * to set is a full money field (above 0, the currency's decimals, Apple's minimum); an amount
 * to raise or lower by is above 0 in the currency's decimals; a percentage above 0 and at
 * most 1,000 (raise) or 100 (lower); floor and cap, when given, are amounts of the field.
 * `request` is null while the amount is empty or any field has a problem.
 */
export function bulkRequest(form: BulkForm, currency: string | null): { request: { value?: string; percent?: number; floor?: string; cap?: string } | null; problems: { value?: string; floor?: string; cap?: string } } {
  const problems: { value?: string; floor?: string; cap?: string } = {};
  const label = moneyLabel(form.field);
  const filled = (v: number | string) => v !== '' && v !== '-';
  let value: { value?: string; percent?: number } | null = null;
  if (filled(form.value)) {
    if (form.mode !== 'set' && form.unit === 'percent') {
      const percent = Number(form.value);
      const max = MAX_PERCENT[form.mode];
      if (Number.isNaN(percent) || percent <= 0) problems.value = fill(t('money.percentPositive'), { label });
      else if (percent > max) problems.value = fill(t('money.percentMax'), { max: String(max) });
      else value = { percent };
    } else {
      const problem = moneyProblem(form.field, currency, form.value, form.mode === 'set' ? {} : { minimum: false, label: t('bulk.value') });
      if (problem) problems.value = problem;
      else value = { value: amountText(Number(form.value), currency) };
    }
  }
  const limits: { floor?: string; cap?: string } = {};
  if (form.mode !== 'set') {
    for (const key of ['floor', 'cap'] as const) {
      const input = form[key];
      if (!filled(input)) continue;
      const problem = moneyProblem(form.field, currency, input, { label: t(key === 'floor' ? 'bulk.floorName' : 'bulk.capName') });
      if (problem) problems[key] = problem;
      else limits[key] = amountText(Number(input), currency);
    }
  }
  const ok = value !== null && Object.keys(problems).length === 0;
  return { request: ok ? { ...value, ...(form.mode === 'set' ? {} : { floor: limits.floor, cap: limits.cap }) } : null, problems };
}

/** The Tag button: the tag picker for the selected rows (their tags read from the page). */
/** A field's label inside a sentence ('bid', 'daily budget', but 'CPA goal'). */
function inSentence(label: string): string {
  return /^[A-Z][a-z]/.test(label) ? label.charAt(0).toLowerCase() + label.slice(1) : label;
}

/** What a bulk edit does, in the user's words ('Raise bid by 10%', 'Set daily budget to $5.00'). */
export function describeBulk(action: BulkAction, field: string, request: { value?: string | undefined; percent?: number | undefined }, currency: string | null): string {
  if (action === 'pause' || action === 'enable') return t(`bulk.describe.${action}`);
  const value = request.percent !== undefined && action !== 'set' ? `${formatNumber(request.percent)}%` : formatMoney(request.value ?? '', currency);
  return fill(t(`bulk.describe.${action}`), { field: inSentence(moneyLabel(field)), value });
}

interface StartedTask {
  taskId: string;
  title: string | null;
  field: string | null;
}

export function BulkEditBar({ level, accountId, orgId, campaignId, currency, selected, canEdit, nameOf, rowOf, adGroupId }: BulkEditBarProps) {
  const fields = bulkFields(level).filter((f) => f !== 'status');
  const [field, setField] = useState<string>(fields[0] ?? '');
  const [mode, setMode] = useState<Mode>('set');
  const [unit, setUnit] = useState<'amount' | 'percent'>('amount');
  const [value, setValue] = useState<number | string>('');
  const [floor, setFloor] = useState<number | string>('');
  const [cap, setCap] = useState<number | string>('');
  const [tasks, setTasks] = useState<StartedTask[]>([]);
  const [duplicating, setDuplicating] = useState(false);
  const edit = useBulkEdit();
  const ids = [...selected].filter(isEntityId);
  const bulk = bulkFields(level).length > 0 && (level === 'CAMPAIGNS' || campaignId !== null);
  if (selected.size === 0 && tasks.length === 0) return null;
  if (!bulk && tagTypeOf(level) === null) return null;

  const digits = currencyDigits(currency);
  const symbol = currencyOf(currency)?.symbol ?? '';
  const percent = mode !== 'set' && unit === 'percent';
  const { request, problems } = bulkRequest({ field, mode, unit, value, floor, cap }, currency);
  const negatives = NEGATIVE_SOURCES.includes(level) ? negativeItems(ids, rowOf, nameOf, { campaignId, adGroupId }) : [];
  const run = (action: BulkAction, extra: { value?: string; percent?: number; floor?: string; cap?: string } = {}) => {
    const target = action === 'pause' || action === 'enable' ? 'status' : field;
    const input: BulkEditInput = { accountId, orgId, level, campaignId, ids, field: target, action, ...extra };
    edit.mutate(input, {
      onSuccess: (started) => {
        setTasks([{ taskId: started.taskId, title: describeBulk(action, field, extra, currency), field: target === 'status' ? null : target }]);
        showSnackbar(`${t('bulk.started')} (${tn('bulk.itemCount', started.total, formatNumber(started.total, 0))})`, 'info');
      },
      onError: (e) => showSnackbar(refusalText(e, target === 'status' ? null : target, currency), 'danger'),
    });
  };
  // Negative amounts stay negative in the input (and are refused), never lose their sign.
  const money = { step: 0.01, decimalScale: digits, thousandSeparator: ' ', prefix: symbol, hideControls: true, size: 'xs' as const, w: 130 };

  return (
    <Card withBorder padding="xs" bg="var(--mantine-color-blue-0)" data-testid="bulk-edit-bar">
      <Stack gap="xs">
        {selected.size > 0 && (
          <Group gap="xs" wrap="wrap" align="flex-start">
            {bulk && fields.length > 0 && (
              <>
                <Select
                  size="xs"
                  w={160}
                  label={t('bulk.field')}
                  data={fields.map((f) => ({ value: f, label: moneyLabel(f) }))}
                  value={field}
                  onChange={(f) => f && setField(f)}
                  allowDeselect={false}
                  disabled={!canEdit}
                />
                <LabelledChoice
                  label={t('bulk.action')}
                  value={mode}
                  onChange={(m) => setMode(m)}
                  disabled={!canEdit}
                  data={[
                    { value: 'set', label: t('bulk.set') },
                    { value: 'raise', label: t('bulk.raise') },
                    { value: 'lower', label: t('bulk.lower') },
                  ]}
                />
                {mode !== 'set' && (
                  <LabelledChoice
                    label={t('bulk.unit')}
                    value={unit}
                    onChange={(u) => setUnit(u)}
                    disabled={!canEdit}
                    data={[
                      { value: 'amount', label: symbol || t('bulk.amount') },
                      { value: 'percent', label: '%' },
                    ]}
                  />
                )}
                {percent ? (
                  <NumberInput size="xs" w={110} label={t('bulk.percent')} step={1} decimalScale={2} suffix="%" hideControls value={value} onChange={setValue} disabled={!canEdit} error={problems.value} />
                ) : (
                  <NumberInput {...money} label={t('bulk.value')} value={value} onChange={setValue} disabled={!canEdit} error={problems.value} />
                )}
                {mode !== 'set' && (
                  <>
                    <NumberInput {...money} label={t('bulk.floor')} value={floor} onChange={setFloor} disabled={!canEdit} error={problems.floor} />
                    <NumberInput {...money} label={t('bulk.cap')} value={cap} onChange={setCap} disabled={!canEdit} error={problems.cap} />
                  </>
                )}
                <Stack gap={2}>
                  <Text size="xs" aria-hidden>
                    {'\u00a0'}
                  </Text>
                  <ReaderGuard canEdit={canEdit}>
                    <Button size="xs" disabled={!canEdit || request === null} loading={edit.isPending} onClick={() => request && run(mode, request)}>
                      {t('bulk.apply')}
                    </Button>
                  </ReaderGuard>
                </Stack>
                <Divider orientation="vertical" />
              </>
            )}
            <Stack gap={2}>
              <Text size="xs" aria-hidden>
                {'\u00a0'}
              </Text>
              <Group gap={6}>
                {bulk && (
                  <>
                    <ReaderGuard canEdit={canEdit}>
                      <Button size="xs" variant="default" leftSection={<IconPlayerPause size={14} />} disabled={!canEdit || edit.isPending} onClick={() => run('pause')}>
                        {t('bulk.pause')}
                      </Button>
                    </ReaderGuard>
                    <ReaderGuard canEdit={canEdit}>
                      <Button size="xs" variant="default" leftSection={<IconPlayerPlay size={14} />} disabled={!canEdit || edit.isPending} onClick={() => run('enable')}>
                        {t('bulk.enable')}
                      </Button>
                    </ReaderGuard>
                  </>
                )}
                {level === 'CAMPAIGNS' && (
                  <ReaderGuard canEdit={canEdit}>
                    <Button size="xs" variant="default" leftSection={<IconCopy size={14} />} disabled={!canEdit} onClick={() => setDuplicating(true)} data-testid="duplicate-campaigns">
                      {t('copy.button')}
                    </Button>
                  </ReaderGuard>
                )}
                <TagMenu level={level} accountId={accountId} orgId={orgId} ids={[...selected]} rowOf={rowOf} canEdit={canEdit} />
                {NEGATIVE_SOURCES.includes(level) && (
                  <NegativesMenu
                    accountId={accountId}
                    orgId={orgId}
                    items={negatives}
                    left={selected.size - negatives.length}
                    canEdit={canEdit}
                    onStarted={(taskIds) => setTasks(taskIds.map((taskId) => ({ taskId, title: null, field: null })))}
                  />
                )}
              </Group>
            </Stack>
          </Group>
        )}
        {level === 'CAMPAIGNS' && canEdit && <CampaignCopyModal opened={duplicating} onClose={() => setDuplicating(false)} accountId={accountId} orgId={orgId} ids={ids} currency={currency} />}
        {tasks.map((task) => (
          <BulkTask key={task.taskId} taskId={task.taskId} title={task.title} field={task.field} currency={currency} nameOf={nameOf} onClose={() => setTasks((all) => all.filter((other) => other.taskId !== task.taskId))} />
        ))}
      </Stack>
    </Card>
  );
}
