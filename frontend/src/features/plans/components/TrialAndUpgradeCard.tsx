/**
 * The Pro trial (spec §4, §9: 14 days, no card, once per workspace) and the upgrade entry.
 * Paid plans are bought through billing, which is not part of the app yet: the upgrade button
 * says so and stays disabled rather than pretend.
 */
import { Button, Card, Divider, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconRocket } from '@tabler/icons-react';
import { t } from '@/i18n';
import { formatDate } from '@/lib/format';
import { usePurchases } from '../api/get-purchases';
import { useStartTrial } from '../api/give-me-trial';
import { includesPro, isTopPlan, type PlanAnswer } from '../api/plan';

type TrialState = 'available' | 'running' | 'used' | 'included' | 'unknown';

function trialState(plan: PlanAnswer, usedTrial: boolean | undefined): TrialState {
  if (plan.plan === 'pro_trial') return 'running';
  if (includesPro(plan.plan)) return 'included';
  if (usedTrial === undefined) return 'unknown';
  return usedTrial ? 'used' : 'available';
}

export function TrialAndUpgradeCard({ plan }: { plan: PlanAnswer }) {
  const purchases = usePurchases();
  const startTrial = useStartTrial();
  const usedTrial = purchases.data ? purchases.data.some((p) => p.usedTrial) : undefined;
  const state = trialState(plan, usedTrial);
  return (
    <Card withBorder padding="lg" data-testid="trial-upgrade">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Stack gap={4}>
            <Text fw={600}>{t('plans.proTrial')}</Text>
            <Text size="sm" c="dimmed" data-testid="trial-text">
              {state === 'running' && `${t('plans.trialRunning')} ${formatDate(plan.offAccountTime)}.`}
              {state === 'available' && t('plans.trialAvailable')}
              {state === 'used' && t('plans.trialUsed')}
              {state === 'included' && t('plans.trialIncluded')}
            </Text>
          </Stack>
          {state === 'available' && plan.canUpgrade && (
            <Button onClick={() => startTrial.mutate()} loading={startTrial.isPending} style={{ flexShrink: 0 }}>
              {t('plans.startTrial')}
            </Button>
          )}
        </Group>
        <Divider />
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Stack gap={4}>
            <Text fw={600}>{t('plans.upgradeTitle')}</Text>
            <Text size="sm" c="dimmed">
              {isTopPlan(plan.plan) ? t('plans.upgradeTop') : t(state === 'available' ? 'plans.upgradeSoon' : 'plans.upgradeSoonNoTrial')}
            </Text>
          </Stack>
          {!isTopPlan(plan.plan) && (
            <Tooltip label={t('plans.upgradeSoonShort')}>
              {/* A disabled button gets no pointer events: the wrapper carries the tooltip. */}
              <span style={{ flexShrink: 0 }}>
                <Button leftSection={<IconRocket size={16} />} disabled data-testid="upgrade-disabled">
                  {t('plans.upgradeComing')}
                </Button>
              </span>
            </Tooltip>
          )}
        </Group>
      </Stack>
    </Card>
  );
}
