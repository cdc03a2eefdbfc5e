/**
 * What a rule did or would do, entity by entity (TanStack Table like the report tables):
 * the run items of a preview or a past run (name, campaign / ad group by name, the metric values
 * that matched, the action, old → new, the result), and the backtest's points and entities.
 */
import { Badge, Card, Group, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { t, tn, type PluralKey } from '@/i18n';
import { EMPTY, formatDate, formatDateTime, formatNumber } from '@/lib/format';
import type { PickerCampaign } from '../api/campaigns';
import type { Backtest } from '../api/preview';
import type { Run, RunItem } from '../api/runs';
import { actionLabel, changeValueText, levelLabel, metricLabel, metricValueText, outcomeColor, resultLabel } from '../describe';
import { RunCohorts } from './RunCohorts';

/**
 * A metric value of a run item or backtest entity. The document types these maps as plain
 * objects; the server sends decimal strings, and null where a ratio has no denominator.
 */
function decimalOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return null;
}

/** The metrics that appear in any item's values, in their first order. */
function metricsOf(rows: { values?: Record<string, unknown> | null | undefined }[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row.values ?? {})) seen.add(key);
  return [...seen];
}

function DataTable<T>({ data, columns, label }: { data: T[]; columns: ColumnDef<T>[]; label: string }) {
  // TanStack Table's instance is rebuilt on every render, which is what it needs.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({ data, columns, getCoreRowModel: getCoreRowModel() });
  return (
    <ScrollArea type="auto">
      <Table striped highlightOnHover withTableBorder aria-label={label} style={{ whiteSpace: 'nowrap' }}>
        <Table.Thead>
          {table.getHeaderGroups().map((group) => (
            <Table.Tr key={group.id}>
              {group.headers.map((header) => (
                <Table.Th key={header.id}>{flexRender(header.column.columnDef.header, header.getContext())}</Table.Th>
              ))}
            </Table.Tr>
          ))}
        </Table.Thead>
        <Table.Tbody>
          {table.getRowModel().rows.map((row) => (
            <Table.Tr key={row.id}>
              {row.getVisibleCells().map((cell) => (
                <Table.Td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}

export function ItemsTable({ items, currency, campaigns, label }: { items: RunItem[]; currency: string | null; campaigns: PickerCampaign[]; label: string }) {
  const columns = useMemo<ColumnDef<RunItem>[]>(() => {
    // The server's names first; the picker's campaigns, then the id, for older answers.
    const campaignName = (item: RunItem) =>
      item.campaignName ?? (item.campaignId ? (campaigns.find((c) => c.campaignId === item.campaignId)?.campaignName ?? item.campaignId) : EMPTY);
    const adGroupName = (item: RunItem) => item.adGroupName ?? item.adGroupId;
    return [
      { id: 'name', header: t('rules.items.name'), cell: ({ row }) => row.original.name ?? row.original.entityId },
      { id: 'level', header: t('rules.items.level'), cell: ({ row }) => levelLabel(`${row.original.level}S`) },
      {
        id: 'where',
        header: t('rules.items.where'),
        cell: ({ row }) => (
          <Text size="sm">
            {campaignName(row.original)}
            {row.original.adGroupId ? ` / ${adGroupName(row.original)}` : ''}
          </Text>
        ),
      },
      ...metricsOf(items).map<ColumnDef<RunItem>>((metric) => ({
        id: `metric-${metric}`,
        header: metricLabel(metric),
        cell: ({ row }) => metricValueText(metric, decimalOf(row.original.values[metric]), currency),
      })),
      { id: 'action', header: t('rules.items.action'), cell: ({ row }) => (row.original.action ? actionLabel(row.original.action) : EMPTY) },
      {
        id: 'change',
        header: t('rules.items.change'),
        cell: ({ row }) =>
          row.original.oldValue === undefined && row.original.newValue === undefined
            ? EMPTY
            : `${changeValueText(row.original.field, row.original.oldValue, currency)} → ${changeValueText(row.original.field, row.original.newValue, currency)}`,
      },
      {
        id: 'result',
        header: t('rules.items.result'),
        cell: ({ row }) => (
          <Group gap={6} wrap="nowrap">
            <Badge size="sm" variant="light" color={outcomeColor(row.original.result)}>
              {resultLabel(row.original.result)}
            </Badge>
            {row.original.message && (
              <Text size="xs" c="dimmed">
                {row.original.message}
              </Text>
            )}
          </Group>
        ),
      },
    ];
  }, [items, currency, campaigns]);
  if (items.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('rules.items.none')}
      </Text>
    );
  }
  return <DataTable data={items} columns={columns} label={label} />;
}

/** The level's entity noun in the plural, for the preview's summary. */
function summaryOf(run: Run, level: string): string {
  const changes = (run.items ?? []).filter((i) => i.oldValue !== i.newValue || i.action === 'alert').length;
  const key = (['CAMPAIGNS', 'ADGROUPS', 'KEYWORDS', 'SEARCHTERMS'].includes(level) ? `rules.wouldChange.${level}` : 'rules.wouldChange.KEYWORDS') as PluralKey;
  return tn(key, changes, formatNumber(changes, 0));
}

export function PreviewPanel({ run, level, currency, campaigns }: { run: Run; level: string; currency: string | null; campaigns: PickerCampaign[] }) {
  return (
    <Card withBorder padding="md" component="section" aria-label={t('rules.preview.title')}>
      <Stack gap="sm">
        <Title order={4}>{t('rules.preview.title')}</Title>
        <Text size="sm" data-testid="preview-summary">
          {summaryOf(run, level)}
          {' · '}
          {tn('rules.run.matched', run.matched, formatNumber(run.matched, 0))}
          {run.window && ` · ${formatDate(run.window.startDate)} – ${formatDate(run.window.endDate)}`}
        </Text>
        {run.reason && (
          <Text size="sm" c="orange">
            {run.reason}
          </Text>
        )}
        <RunCohorts run={run} />
        <ItemsTable items={run.items ?? []} currency={currency} campaigns={campaigns} label={t('rules.preview.title')} />
      </Stack>
    </Card>
  );
}

type Point = Backtest['points'][number];
type Entity = Backtest['entities'][number];

export function BacktestPanel({ backtest, currency, campaigns }: { backtest: Backtest; currency: string | null; campaigns: PickerCampaign[] }) {
  const pointColumns = useMemo<ColumnDef<Point>[]>(
    () => [
      { id: 'at', header: t('rules.backtest.at'), cell: ({ row }) => formatDateTime(row.original.at) },
      { id: 'window', header: t('rules.backtest.window'), cell: ({ row }) => `${formatDate(row.original.window.startDate)} – ${formatDate(row.original.window.endDate)}` },
      { id: 'matched', header: t('rules.backtest.matched'), cell: ({ row }) => formatNumber(row.original.matched, 0) },
      { id: 'changes', header: t('rules.backtest.changes'), cell: ({ row }) => formatNumber(row.original.changes, 0) },
    ],
    [],
  );
  const metrics = useMemo(() => metricsOf(backtest.entities.map((e) => ({ values: e.metrics }))), [backtest.entities]);
  const entityColumns = useMemo<ColumnDef<Entity>[]>(
    () => [
      { id: 'name', header: t('rules.items.name'), cell: ({ row }) => row.original.name || row.original.entityId },
      { id: 'level', header: t('rules.items.level'), cell: ({ row }) => levelLabel(`${row.original.level}S`) },
      { id: 'campaign', header: t('rules.items.where'), cell: ({ row }) => campaigns.find((c) => c.campaignId === row.original.campaignId)?.campaignName ?? row.original.campaignId },
      { id: 'times', header: t('rules.backtest.timesChanged'), cell: ({ row }) => formatNumber(row.original.timesChanged, 0) },
      ...metrics.map<ColumnDef<Entity>>((metric) => ({ id: `m-${metric}`, header: metricLabel(metric), cell: ({ row }) => metricValueText(metric, decimalOf(row.original.metrics[metric]), currency) })),
    ],
    [metrics, currency, campaigns],
  );
  const changes = backtest.points.reduce((sum, p) => sum + p.changes, 0);
  return (
    <Card withBorder padding="md" component="section" aria-label={t('rules.backtest.title')}>
      <Stack gap="sm">
        <Title order={4}>{t('rules.backtest.title')}</Title>
        <Text size="sm" data-testid="backtest-summary">
          {tn('rules.backtest.summary', changes, formatNumber(changes, 0)).replace('{runs}', formatNumber(backtest.points.length, 0))}
        </Text>
        <Text size="xs" c="dimmed" data-testid="backtest-note">
          {backtest.note}
        </Text>
        {/* What it would have changed first; then each scheduled run it replayed. */}
        <Title order={5}>{t('rules.backtest.entities')}</Title>
        {backtest.entities.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('rules.items.none')}
          </Text>
        ) : (
          <DataTable data={backtest.entities} columns={entityColumns} label={t('rules.backtest.entities')} />
        )}
        <Title order={5}>{t('rules.backtest.points')}</Title>
        <DataTable data={backtest.points} columns={pointColumns} label={t('rules.backtest.points')} />
      </Stack>
    </Card>
  );
}
