/**
 * The published figures beside a table (docs/api/benchmarks.md "Reference figures"): each with
 * its metric, value, category, source (linked), period and sample size — labelled as an
 * industry reference, never as the user's data; or why there are none.
 */
import { Anchor, Card, Stack, Text, Title } from '@mantine/core';
import { t } from '@/i18n';
import { formatNumber } from '@/lib/format';
import { fill } from '@/lib/money';
import type { ReferenceFigure } from '../api/get-targets';

const METRIC_KEYS = {
  cpa: 'benchmarks.reference.metric.cpa',
  ttr: 'benchmarks.reference.metric.ttr',
  cr: 'benchmarks.reference.metric.cr',
} as const;

function label(metric: string): string {
  return metric in METRIC_KEYS ? t(METRIC_KEYS[metric as keyof typeof METRIC_KEYS]) : metric;
}

function shown(f: ReferenceFigure): string {
  return f.unit === 'percent' ? `${f.value} %` : `${f.value} ${f.unit}`;
}

export function ReferencePanel({ figures }: { figures: readonly ReferenceFigure[] }) {
  return (
    <Card withBorder component="aside" aria-label={t('benchmarks.reference.title')} padding="md" bg="var(--mantine-color-gray-0)">
      <Stack gap="sm">
        <Stack gap={2}>
          <Title order={3} size="h6">
            {t('benchmarks.reference.title')}
          </Title>
          <Text size="xs" c="dimmed">
            {t('benchmarks.reference.hint')}
          </Text>
        </Stack>
        {figures.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('benchmarks.reference.none')}
          </Text>
        )}
        {figures.map((f) => (
          <Stack gap={0} key={`${f.metric}-${f.category}`} data-testid="reference-figure">
            <Text size="sm" fw={600}>
              {label(f.metric)}: {shown(f)}
            </Text>
            <Text size="xs">{fill(t('benchmarks.reference.category'), { category: f.category })}</Text>
            <Text size="xs" c="dimmed">
              {fill(t('benchmarks.reference.sample'), { period: f.period, n: formatNumber(f.n, 0), of: f.nOf })}
            </Text>
            <Anchor href={f.url} target="_blank" rel="noreferrer" size="xs">
              {f.source}
            </Anchor>
          </Stack>
        ))}
      </Stack>
    </Card>
  );
}
