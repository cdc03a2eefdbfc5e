/**
 * Last month's ad spend (US dollars) against the free plan's threshold
 * (docs/product.md#9-plans-and-trials: Pro is free while it is at most $10,000; above, the plan is
 * limited).
 */
import { Card, Progress, Stack, Text } from '@mantine/core';
import { t } from '@/i18n';
import { formatMoney } from '@/lib/format';
import type { PlanAnswer } from '../api/plan';

export function SpendCard({ plan }: { plan: PlanAnswer }) {
  const spend = Number(plan.lastMonthSpend);
  const threshold = Number(plan.spendThreshold);
  const over = spend > threshold;
  const percent = threshold > 0 ? Math.min(100, (spend / threshold) * 100) : 0;
  return (
    <Card withBorder padding="lg" data-testid="spend-card">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('plans.lastMonthSpend')}
        </Text>
        <Text fw={700} size="xl">
          {formatMoney(spend, 'USD')}{' '}
          <Text span size="sm" c="dimmed" fw={400}>
            {t('plans.of')} {formatMoney(threshold, 'USD')}
          </Text>
        </Text>
        <Progress value={percent} color={over ? 'orange' : 'teal'} aria-label={t('plans.lastMonthSpend')} />
        <Text size="sm" c="dimmed">
          {over ? t('plans.spendOver') : t('plans.spendUnder')}
        </Text>
      </Stack>
    </Card>
  );
}
