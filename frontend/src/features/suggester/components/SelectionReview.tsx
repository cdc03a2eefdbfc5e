/**
 * Step 3 as far as this issue goes: the selection step 2 carried on, read-only, with its
 * count and estimated impressions (a placeholder while the estimates are asked), for the app and country collected for. Keyword
 * segmentation builds on this list (the next issue).
 */
import { Badge, Card, Group, Stack, Table, Text } from '@mantine/core';
import { useMemo } from 'react';
import { t, tn } from '@/i18n';
import { formatNumber } from '@/lib/format';
import type { Suggester } from '../hooks/useSuggester';
import { popularityDots } from '../keyword-filter';
import { EstimatePending, PopularityDots } from './KeywordSelection';

export function SelectionReview({ suggester }: { suggester: Suggester }) {
  const { selected, form } = suggester.state;
  const { keywords: items, estimating } = suggester;
  const rows = useMemo(() => {
    const byName = new Map((items ?? []).map((k) => [k.name, k]));
    return selected
      .map((p) => ({ ...p, keyword: byName.get(p.name) ?? null }))
      .sort((a, b) => (b.keyword?.popularity ?? -1) - (a.keyword?.popularity ?? -1) || a.name.localeCompare(b.name));
  }, [selected, items]);
  const impressions = selected.reduce((sum, p) => sum + p.impressions, 0);
  return (
    <Card withBorder padding={0} data-testid="selection-review">
      <Group justify="space-between" p="md" wrap="wrap">
        <Stack gap={2}>
          <Text fw={600}>{t('suggester.selection.title')}</Text>
          {form.app && (
            <Text size="xs" c="dimmed">
              {t('suggester.selection.for')} {form.app.name}
              {form.country ? ` · ${form.country}` : ''}
            </Text>
          )}
        </Stack>
        <Group gap="sm">
          <Badge size="lg" variant="light" tt="none" data-testid="selection-count">
            {tn('suggester.keywordCount', selected.length, formatNumber(selected.length, 0))}
          </Badge>
          <Text size="sm" c="dimmed" data-testid="selection-impressions">
            {t('suggester.selection.impressions')}:{' '}
            {estimating ? (
              <Text span c="dimmed">
                —
              </Text>
            ) : (
              <Text span fw={600} c="dark">
                {formatNumber(impressions, 0)}
              </Text>
            )}
          </Text>
        </Group>
      </Group>
      <Table striped verticalSpacing={6} data-testid="selection-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('suggester.col.keyword')}</Table.Th>
            <Table.Th style={{ textAlign: 'right' }}>{t('suggester.col.popularity')}</Table.Th>
            <Table.Th style={{ textAlign: 'right' }}>{t('suggester.col.impressions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.name}>
              <Table.Td>
                <Text size="sm" fw={500}>
                  {row.name}
                </Text>
              </Table.Td>
              <Table.Td>
                <Group gap={8} justify="flex-end" wrap="nowrap">
                  <Text size="sm">{row.keyword?.popularity == null ? '—' : formatNumber(row.keyword.popularity, 0)}</Text>
                  {row.keyword && <PopularityDots value={popularityDots(row.keyword)} />}
                </Group>
              </Table.Td>
              <Table.Td style={{ textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}>{estimating ? <EstimatePending /> : formatNumber(row.impressions, 0)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}
