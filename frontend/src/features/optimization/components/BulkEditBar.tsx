/**
 * The bulk-edit header (spec §2 bulk edit headers), shown while rows are selected: one
 * money field of every selected row set, raised or lowered by an amount or a percentage
 * (with an optional floor and cap), the rows paused or enabled, a tag put on them, or (keywords
 * and search terms) their texts added as negative keywords of their campaign or ad group with
 * a match type. An edit runs as a background task: its progress shows here and in the background-tasks
 * popover, and once it ends the rows Apple Ads refused are listed with its message.
 */
import { Alert, Badge, Button, Card, Divider, Group, Menu, NumberInput, Popover, Progress, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconBan, IconPlayerPause, IconPlayerPlay, IconTag } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTask, taskProgress } from '@/features/tasks';
import { t } from '@/i18n';
import { currencyDigits, currencyOf, formatNumber } from '@/lib/format';
import { idIn, isEntityId, type EntityId } from '@/lib/ids';
import { showSnackbar } from '@/lib/notifications';
import {
  bulkDetailsOf,
  bulkFields,
  NEGATIVE_SOURCES,
  tagTypeOf,
  useAddNegatives,
  useAssignTag,
  useBulkEdit,
  type BulkAction,
  type BulkEditInput,
  type NegativeLevel,
  type NegativesInput,
} from '../api/bulk-edit';
import type { ReportRow } from '../api/report';
import { optimizationKeys } from '../api/keys';
import { useAllTags } from '../api/tags';
import { labelKey } from '../columns';
import type { Level } from '../paths';
import { message } from './cells';
import { amountText, ReaderGuard, refusalOf } from './QuickEdit';

const TAG_COLORS = ['Green', 'Purple', 'Yellow', 'Orange', 'Pink', 'Indigo', 'Magenta', 'Cyan', 'Blue', 'Red'] as const;

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
  /** A row by its id, when it is on the page (negatives take their texts and places). */
  rowOf: (id: EntityId) => ReportRow | null;
  /** The page's ad group (keywords and search terms of one ad group), or null. */
  adGroupId: EntityId | null;
}


/** The texts and places of the selected rows on the page, as negatives take them. */
export function negativeItems(ids: EntityId[], rowOf: (id: EntityId) => ReportRow | null, nameOf: (id: EntityId) => string | null, page: { campaignId: EntityId | null; adGroupId: EntityId | null }): NegativesInput['items'] {
  const items: NegativesInput['items'] = [];
  for (const id of ids) {
    const row = rowOf(id);
    const text = nameOf(id);
    const campaignId = (row && idIn(row, 'campaignId')) ?? page.campaignId;
    if (!row || !text || campaignId === null) continue;
    items.push({ text, campaignId, adGroupId: idIn(row, 'adGroupId') ?? page.adGroupId });
  }
  return items;
}

/** A choice of a few values as a full-width segmented control under its label (which names it). */
function LabelledChoice<T extends string>({ label, value, onChange, data }: { label: string; value: T; onChange: (value: T) => void; data: { value: T; label: string }[] }) {
  return (
    <Stack gap={2}>
      <Text size="xs" fw={500}>
        {label}
      </Text>
      <SegmentedControl size="xs" fullWidth aria-label={label} value={value} onChange={onChange} data={data} />
    </Stack>
  );
}

function NegativesMenu({ accountId, orgId, items, left, canEdit, onStarted }: { accountId: string; orgId: EntityId; items: NegativesInput['items']; left: number; canEdit: boolean; onStarted: (taskIds: string[]) => void }) {
  const add = useAddNegatives();
  const [open, setOpen] = useState(false);
  const [level, setLevel] = useState<NegativeLevel>('campaign');
  const [matchType, setMatchType] = useState<'EXACT' | 'BROAD'>('EXACT');
  const texts = new Set(items.filter((i) => level === 'campaign' || i.adGroupId !== null).map((i) => i.text)).size;
  const run = () =>
    add.mutate(
      { accountId, orgId, items, level, matchType },
      {
        onSuccess: (started) => {
          setOpen(false);
          onStarted(started.map((s) => s.taskId));
          const total = started.reduce((sum, s) => sum + s.total, 0);
          showSnackbar(`${t('bulk.started')} (${formatNumber(total, 0)} ${t('bulk.items')})`, 'info');
        },
        onError: (e) => showSnackbar(refusalOf(e), 'danger'),
      },
    );
  return (
    <Popover opened={open} onChange={setOpen} position="bottom-end" shadow="md" width={280} trapFocus>
      <Popover.Target>
        <ReaderGuard canEdit={canEdit}>
          <Button size="xs" variant="default" leftSection={<IconBan size={14} />} disabled={!canEdit} loading={add.isPending} onClick={() => setOpen((o) => !o)}>
            {t('bulk.negatives')}
          </Button>
        </ReaderGuard>
      </Popover.Target>
      <Popover.Dropdown data-testid="negatives-form">
        <Stack gap="xs">
          <LabelledChoice
            label={t('bulk.negativesLevel')}
            value={level}
            onChange={setLevel}
            data={[
              { value: 'campaign', label: t('bulk.negativesCampaign') },
              { value: 'adGroup', label: t('bulk.negativesAdGroup') },
            ]}
          />
          <LabelledChoice
            label={t('bulk.negativesMatch')}
            value={matchType}
            onChange={setMatchType}
            data={[
              { value: 'EXACT', label: t('bulk.negativesExact') },
              { value: 'BROAD', label: t('bulk.negativesBroad') },
            ]}
          />
          <Text size="xs" c="dimmed" data-testid="negatives-count">
            {formatNumber(texts, 0)} {t('bulk.negativesTexts')}
            {left > 0 ? ` · ${formatNumber(left, 0)} ${t('bulk.negativesNotOnPage')}` : ''}
          </Text>
          <Button size="xs" disabled={texts === 0} loading={add.isPending} onClick={run}>
            {t('bulk.negativesAdd')}
          </Button>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

type Mode = 'set' | 'raise' | 'lower';

/** The request of the form's values, or the reason it cannot be sent yet. */
export function bulkRequest(
  form: { field: string; mode: Mode; unit: 'amount' | 'percent'; value: number | string; floor: number | string; cap: number | string },
  currency: string | null,
): { value?: string; percent?: number; floor?: string; cap?: string } | null {
  const num = (v: number | string) => (v === '' ? null : Number(v));
  const value = num(form.value);
  if (value === null || Number.isNaN(value) || value < 0) return null;
  const money = (v: number | string) => {
    const n = num(v);
    return n === null || Number.isNaN(n) ? undefined : amountText(n, currency);
  };
  const limits = form.mode === 'set' ? {} : { floor: money(form.floor), cap: money(form.cap) };
  if (form.mode !== 'set' && form.unit === 'percent') return { percent: value, ...limits };
  return { value: amountText(value, currency), ...limits };
}

function TagMenu({ level, accountId, orgId, ids, canEdit }: { level: Level; accountId: string; orgId: EntityId; ids: EntityId[]; canEdit: boolean }) {
  const type = tagTypeOf(level);
  const tags = useAllTags();
  const assign = useAssignTag();
  const [name, setName] = useState('');
  const [color, setColor] = useState<string>('Blue');
  if (!type) return null;
  const own = tags.data?.[type] ?? [];
  const run = (tag: Parameters<typeof assign.mutate>[0]['tag']) =>
    assign.mutate(
      { accountId, orgId, ids, tag },
      {
        onSuccess: () => {
          setName('');
          showSnackbar(t('bulk.tagged'));
        },
        onError: (e) => showSnackbar(refusalOf(e), 'danger'),
      },
    );
  return (
    <Menu position="bottom-end" shadow="md" closeOnItemClick width={260}>
      <Menu.Target>
        <ReaderGuard canEdit={canEdit}>
          <Button size="xs" variant="default" leftSection={<IconTag size={14} />} disabled={!canEdit} loading={assign.isPending}>
            {t('bulk.tag')}
          </Button>
        </ReaderGuard>
      </Menu.Target>
      <Menu.Dropdown>
        {own.length > 0 && <Menu.Label>{t('bulk.tagExisting')}</Menu.Label>}
        {own.map((tag) => (
          <Menu.Item key={tag._id} onClick={() => run({ id: tag._id })}>
            {tag.name}
          </Menu.Item>
        ))}
        {own.length > 0 && <Menu.Divider />}
        <Menu.Label>{t('bulk.tagNew')}</Menu.Label>
        <Stack gap={6} px="xs" pb="xs">
          <TextInput size="xs" aria-label={t('bulk.tagName')} placeholder={t('bulk.tagName')} value={name} maxLength={30} onChange={(e) => setName(e.currentTarget.value)} />
          <Select size="xs" aria-label={t('bulk.tagColor')} data={TAG_COLORS.map((c) => ({ value: c, label: c }))} value={color} onChange={(c) => c && setColor(c)} comboboxProps={{ withinPortal: false }} />
          <Button size="xs" disabled={name.trim() === ''} onClick={() => run({ name: name.trim(), color, type })}>
            {t('bulk.tagCreate')}
          </Button>
        </Stack>
      </Menu.Dropdown>
    </Menu>
  );
}

/** The progress of the last bulk edit started here, and its refused items once it ends. */
function BulkTask({ taskId, nameOf, onClose }: { taskId: string; nameOf: (id: EntityId) => string | null; onClose: () => void }) {
  const { data: task } = useTask(taskId);
  const queryClient = useQueryClient();
  const ended = task ? task.finish || task.error !== null : false;
  useEffect(() => {
    if (ended) void queryClient.invalidateQueries({ queryKey: [...optimizationKeys.all, 'report'] });
  }, [ended, queryClient]);
  if (!task) return null;
  const details = bulkDetailsOf(task.details);
  const percent = taskProgress(task);
  return (
    <Stack gap={6} data-testid="bulk-task">
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm" fw={600}>
          {ended ? (task.error ? t('tasks.failed') : t('bulk.finished')) : t('bulk.running')}
          {details?.operation ? ` · ${details.operation}` : ''}
        </Text>
        {ended && (
          <Button size="compact-xs" variant="subtle" color="gray" onClick={onClose}>
            {t('common.close')}
          </Button>
        )}
      </Group>
      <Progress value={percent} color={task.error ? 'red' : ended ? 'green' : 'blue'} size="sm" aria-label={t('bulk.running')} />
      {details && (
        <Group gap="xs" data-testid="bulk-counts">
          <Badge variant="light" color="green" tt="none">
            {formatNumber(details.applied, 0)} {t('bulk.applied')}
          </Badge>
          <Badge variant="light" color="gray" tt="none">
            {formatNumber(details.skipped, 0)} {t('bulk.skipped')}
          </Badge>
          <Badge variant="light" color={details.refused > 0 ? 'red' : 'gray'} tt="none">
            {formatNumber(details.refused, 0)} {t('bulk.refused')}
          </Badge>
          <Text size="xs" c="dimmed">
            {formatNumber(details.done, 0)} / {formatNumber(details.total, 0)}
          </Text>
        </Group>
      )}
      {task.error && (
        <Text size="sm" c="red">
          {task.error}
        </Text>
      )}
      {details && details.errors.length > 0 && (
        <Alert color="red" variant="light" title={t('bulk.refusedTitle')} data-testid="bulk-refused">
          <Stack gap={2}>
            {details.errors.map((item, index) => (
              <Text key={`${item.id}/${index}`} size="sm">
                <Text span fw={600}>
                  {item.text ?? nameOf(item.id) ?? item.id}
                </Text>
                {': '}
                {item.message ?? t('bulk.refused')}
              </Text>
            ))}
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}

export function BulkEditBar({ level, accountId, orgId, campaignId, currency, selected, canEdit, nameOf, rowOf, adGroupId }: BulkEditBarProps) {
  const fields = bulkFields(level).filter((f) => f !== 'status');
  const [field, setField] = useState<string>(fields[0] ?? '');
  const [mode, setMode] = useState<Mode>('set');
  const [unit, setUnit] = useState<'amount' | 'percent'>('amount');
  const [value, setValue] = useState<number | string>('');
  const [floor, setFloor] = useState<number | string>('');
  const [cap, setCap] = useState<number | string>('');
  const [taskIds, setTaskIds] = useState<string[]>([]);
  const edit = useBulkEdit();
  const ids = [...selected].filter(isEntityId);
  const bulk = bulkFields(level).length > 0 && (level === 'CAMPAIGNS' || campaignId !== null);
  if (selected.size === 0 && taskIds.length === 0) return null;
  if (!bulk && tagTypeOf(level) === null) return null;

  const digits = currencyDigits(currency);
  const symbol = currencyOf(currency)?.symbol ?? '';
  const percent = mode !== 'set' && unit === 'percent';
  const request = bulkRequest({ field, mode, unit, value, floor, cap }, currency);
  const negatives = NEGATIVE_SOURCES.includes(level) ? negativeItems(ids, rowOf, nameOf, { campaignId, adGroupId }) : [];
  const run = (action: BulkAction, extra: Partial<BulkEditInput> = {}) => {
    const input: BulkEditInput = { accountId, orgId, level, campaignId, ids, field: action === 'pause' || action === 'enable' ? 'status' : field, action, ...extra };
    edit.mutate(input, {
      onSuccess: (started) => {
        setTaskIds([started.taskId]);
        showSnackbar(`${t('bulk.started')} (${formatNumber(started.total, 0)} ${t('bulk.items')})`, 'info');
      },
      onError: (e) => showSnackbar(refusalOf(e), 'danger'),
    });
  };
  const money = { min: 0, step: 0.01, decimalScale: digits, allowNegative: false, thousandSeparator: ' ', prefix: symbol, hideControls: true, size: 'xs' as const, w: 110 };

  return (
    <Card withBorder padding="xs" bg="var(--mantine-color-blue-0)" data-testid="bulk-edit-bar">
      <Stack gap="xs">
        {selected.size > 0 && (
          <Group gap="xs" wrap="wrap" align="flex-end">
            {bulk && fields.length > 0 && (
              <>
                <Select
                  size="xs"
                  w={160}
                  label={t('bulk.field')}
                  data={fields.map((f) => ({ value: f, label: message(labelKey(f), f) }))}
                  value={field}
                  onChange={(f) => f && setField(f)}
                  allowDeselect={false}
                  disabled={!canEdit}
                />
                <SegmentedControl
                  size="xs"
                  aria-label={t('bulk.action')}
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
                  <SegmentedControl
                    size="xs"
                    aria-label={t('bulk.unit')}
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
                  <NumberInput size="xs" w={90} label={t('bulk.percent')} min={0} step={1} decimalScale={2} allowNegative={false} suffix="%" hideControls value={value} onChange={setValue} disabled={!canEdit} />
                ) : (
                  <NumberInput {...money} label={t('bulk.value')} value={value} onChange={setValue} disabled={!canEdit} />
                )}
                {mode !== 'set' && (
                  <>
                    <NumberInput {...money} label={t('bulk.floor')} value={floor} onChange={setFloor} disabled={!canEdit} />
                    <NumberInput {...money} label={t('bulk.cap')} value={cap} onChange={setCap} disabled={!canEdit} />
                  </>
                )}
                <ReaderGuard canEdit={canEdit}>
                  <Button size="xs" disabled={!canEdit || request === null} loading={edit.isPending} onClick={() => request && run(mode, request)}>
                    {t('bulk.apply')}
                  </Button>
                </ReaderGuard>
                <Divider orientation="vertical" />
              </>
            )}
            {bulk && (
              <Group gap={6}>
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
              </Group>
            )}
            <TagMenu level={level} accountId={accountId} orgId={orgId} ids={ids} canEdit={canEdit} />
            {NEGATIVE_SOURCES.includes(level) && (
              <NegativesMenu accountId={accountId} orgId={orgId} items={negatives} left={selected.size - negatives.length} canEdit={canEdit} onStarted={setTaskIds} />
            )}
          </Group>
        )}
        {taskIds.map((taskId) => (
          <BulkTask key={taskId} taskId={taskId} nameOf={nameOf} onClose={() => setTaskIds((ids) => ids.filter((id) => id !== taskId))} />
        ))}
      </Stack>
    </Card>
  );
}
