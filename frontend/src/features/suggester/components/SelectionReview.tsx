/**
 * The head of step 3: the selection step 2 carried on, with its count and estimated
 * impressions (a placeholder while the estimates are asked), for the app and country
 * collected for. The segments follow it.
 */
import { Badge, Card, Group, Stack, Text } from '@mantine/core';
import { t, tn } from '@/i18n';
import { formatNumber } from '@/lib/format';
import type { Suggester } from '../hooks/useSuggester';

export function SelectionReview({ suggester }: { suggester: Suggester }) {
  const { selected, form } = suggester.state;
  const { estimating } = suggester;
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
    </Card>
  );
}
