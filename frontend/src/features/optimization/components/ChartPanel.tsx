/**
 * The chart card above a level's table (docs/product.md#2-tables: graph metrics): two metric
 * choosers (left and right axis, kept in the address) and the daily points of the level's scope,
 * range and filters. With filters the chart sums only the rows they keep (the server's graph does),
 * and says so under its title with the number of rows plotted. Money over several currencies
 * is drawn per currency, or converted to the reporting currency with the rates named under
 * the chart; days not synced yet are left out and said to be. The chart itself (uPlot) is a
 * lazy chunk, asked when the panel mounts (beside its points) and drawn without suspending
 * once it is in.
 */
import { Card, Center, Group, Loader, Select, Skeleton, Stack, Text } from '@mantine/core';
import { Suspense, useEffect, useMemo } from 'react';
import { t, tn } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { formatNumber } from '@/lib/format';
import { useGraph, type ReportRequest } from '../api/report';
import { GRAPH_METRICS, graphKind, isGraphMetric, type ChartMetrics } from '../chart-metrics';
import { chartDays, chartGroups, chartSeries } from '../chart-series';
import { labelKey, mixesCurrencies } from '../columns';
import { message } from '../format-value';
import { convertedNote } from '../reporting-currency';
import { CHART_COLORS } from './chart-colors';
import { ReportChart } from './report-chart-chunk';


const HEIGHT = 240;
/** One chart per currency when money is split by currency (each on axes in its own money). */
const SPLIT_HEIGHT = 180;

export function metricLabel(metric: string): string {
  return message(labelKey(metric), metric);
}

function MetricSelect({ label, value, other, color, onChange }: { label: string; value: string; other: string; color: string; onChange: (v: string) => void }) {
  const data = useMemo(() => GRAPH_METRICS.filter((m) => m !== other).map((m) => ({ value: m, label: metricLabel(m) })), [other]);
  return (
    <Select
      size="xs"
      w={210}
      aria-label={label}
      data={data}
      value={value}
      allowDeselect={false}
      searchable
      nothingFoundMessage={t('select.nothingFound')}
      onChange={(next) => next && isGraphMetric(next) && onChange(next)}
      leftSection={<span style={{ width: 10, height: 10, borderRadius: 5, background: color, display: 'inline-block' }} aria-hidden />}
    />
  );
}

export function ChartPanel({ request, metrics, onMetrics }: { request: ReportRequest; metrics: ChartMetrics; onMetrics: (m: ChartMetrics) => void }) {
  const graph = useGraph(request, true);
  // The chart's chunk downloads while the points are asked, not after they arrive (issue
  // 42 item 19: it added a round trip to the first paint of the campaign groups).
  useEffect(() => {
    ReportChart.preload().catch(() => undefined);
  }, []);
  const currency = graph.data?.currency ?? null;
  // Accounts and campaign groups of several currencies: money per currency, or converted.
  const mixed = mixesCurrencies(request.level, currency);
  const days = useMemo(() => (graph.data ? chartDays(graph.data) : []), [graph.data]);
  const series = useMemo(() => (graph.data ? chartSeries(graph.data, metrics, metricLabel, mixed) : []), [graph.data, metrics, mixed]);
  const points = graph.data?.graph ?? null;
  const money = metrics.some((m) => graphKind(m) === 'money');
  const unsynced = points?.some((p) => p.synced === false) ?? false;
  // Before the first sync the days are there but hold nothing: say so rather than draw zeros.
  const hasData = points !== null && points.length > 0 && series.some((s) => s.values.some((v) => v !== null)) && (graph.data?.lastSyncedAt != null || graph.data?.syncing === true || series.some((s) => s.values.some((v) => v !== null && v !== 0)));
  return (
    <Card withBorder padding="sm" data-testid="report-chart">
      <Group justify="space-between" mb="xs" wrap="wrap" gap="xs">
        <Stack gap={0}>
          <Text fw={600} size="sm">
            {t('chart.title')}
          </Text>
          {request.filters.length > 0 && (
            <Text size="xs" c="dimmed" data-testid="chart-filtered">
              {t('chart.filtered')}
              {graph.data ? ` (${tn('table.rowCount', graph.data.total, formatNumber(graph.data.total, 0))})` : ''}
            </Text>
          )}
        </Stack>
        <Group gap="xs">
          <MetricSelect label={t('chart.leftMetric')} value={metrics[0]} other={metrics[1]} color={CHART_COLORS[0]} onChange={(m) => onMetrics([m, metrics[1]])} />
          <MetricSelect label={t('chart.rightMetric')} value={metrics[1]} other={metrics[0]} color={CHART_COLORS[1]} onChange={(m) => onMetrics([metrics[0], m])} />
        </Group>
      </Group>
      {graph.error ? (
        <Center h={HEIGHT}>
          <Text size="sm" c="red">
            {errorMessage(graph.error)}
          </Text>
        </Center>
      ) : !graph.data ? (
        <Skeleton h={HEIGHT} radius="sm" />
      ) : !hasData ? (
        <Center h={HEIGHT}>
          <Text size="sm" c="dimmed" data-testid="chart-empty">
            {graph.data.lastSyncedAt || graph.data.syncing ? t('chart.empty') : t('chart.notSynced')}
          </Text>
        </Center>
      ) : (
        <Suspense
          fallback={
            <Center h={HEIGHT}>
              <Loader size="sm" aria-label={t('common.loading')} />
            </Center>
          }
        >
          <Stack gap="sm" style={{ opacity: graph.isPlaceholderData ? 0.6 : 1, transition: 'opacity 120ms' }}>
            {chartGroups(series).map((group) => (
              <div key={group.currency ?? 'all'} data-testid="report-chart-group" data-currency={group.currency ?? undefined}>
                {group.currency && (
                  <Text size="xs" fw={600} c="dimmed">
                    {t('chart.inCurrency').replace('{currency}', group.currency)}
                  </Text>
                )}
                <ReportChart days={days} series={group.series} height={group.currency ? SPLIT_HEIGHT : HEIGHT} />
              </div>
            ))}
          </Stack>
          {money && graph.data.converted ? (
            <Text size="xs" c="dimmed" ta="center" data-testid="chart-converted">
              {convertedNote(graph.data.converted)}
            </Text>
          ) : (
            mixed &&
            money && (
              <Text size="xs" c="dimmed" ta="center" data-testid="chart-mixed-currencies">
                {t('table.mixedCurrencies')}
              </Text>
            )
          )}
          {unsynced && (
            <Text size="xs" c="dimmed" ta="center" data-testid="chart-unsynced">
              {t('chart.daysNotSynced')}
            </Text>
          )}
        </Suspense>
      )}
    </Card>
  );
}
