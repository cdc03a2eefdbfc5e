/** The plan's limits (docs/api/plans.md "Limits per plan"); no number means no limit. */
import { Card, SimpleGrid, Stack, Text } from '@mantine/core';
import { t, type MessageKey } from '@/i18n';
import { formatNumber } from '@/lib/format';
import type { PlanLimits } from '../api/plan';

const ROWS: readonly [keyof PlanLimits, MessageKey][] = [
  ['apps', 'plans.limit.apps'],
  ['developers', 'plans.limit.developers'],
  ['campaigns', 'plans.limit.campaigns'],
  ['keywordGroups', 'plans.limit.keywordGroups'],
  ['rules', 'plans.limit.rules'],
  ['rulesCampaigns', 'plans.limit.rulesCampaigns'],
];

export function PlanLimitsCard({ limits }: { limits: PlanLimits }) {
  return (
    <Card withBorder padding="lg" data-testid="plan-limits">
      <Stack gap="md">
        <div>
          <Text fw={600}>{t('plans.limitsTitle')}</Text>
          <Text size="sm" c="dimmed">
            {t('plans.limitsHint')}
          </Text>
        </div>
        <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="md">
          {ROWS.map(([field, label]) => {
            const value = limits[field];
            return (
              <Stack key={field} gap={2}>
                <Text size="sm" c="dimmed">
                  {t(label)}
                </Text>
                <Text fw={600} data-testid={`limit-${field}`}>
                  {value === null ? t('plans.noLimit') : formatNumber(value)}
                </Text>
              </Stack>
            );
          })}
        </SimpleGrid>
      </Stack>
    </Card>
  );
}
