/** The plan now: its name, the free-trial status and, for a plan with an end, when it ends. */
import { Badge, Card, Group, Stack, Text } from '@mantine/core';
import { t, tn } from '@/i18n';
import { formatDate } from '@/lib/format';
import type { PlanAnswer } from '../api/plan';
import { planLabel, trialStatusLabel } from '../labels';

export function PlanSummaryCard({ plan }: { plan: PlanAnswer }) {
  const trial = plan.freeTrialStatus === 'TrialStarted';
  return (
    <Card withBorder padding="lg" data-testid="plan-summary">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('plans.currentPlan')}
        </Text>
        <Group gap="sm">
          <Text fw={700} size="xl" data-testid="plan-name">
            {planLabel(plan.plan)}
          </Text>
          {trial && <Badge color="teal">{t('plans.trialBadge')}</Badge>}
        </Group>
        <Text size="sm">{t(`plans.about.${plan.plan}`)}</Text>
        <Group gap="xs">
          <Text size="sm" c="dimmed">
            {t('plans.freeTrialStatus')}
          </Text>
          <Text size="sm" fw={500} data-testid="trial-status">
            {trialStatusLabel(plan.freeTrialStatus)}
          </Text>
        </Group>
        {plan.offAccountTime !== null && (
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              {trial ? t('plans.trialEnds') : t('plans.planEnds')}
            </Text>
            <Text size="sm" fw={500} data-testid="plan-end">
              {formatDate(plan.offAccountTime)}
              {typeof plan.daysLeft === 'number' && plan.daysLeft > 0 && ` (${tn('plans.daysLeft', plan.daysLeft)})`}
            </Text>
          </Group>
        )}
      </Stack>
    </Card>
  );
}
