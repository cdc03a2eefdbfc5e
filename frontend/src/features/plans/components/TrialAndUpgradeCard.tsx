/**
 * The Pro trial (docs/product.md#4-plans, docs/product.md#9-plans-and-trials: 14 days, no card,
 * once per workspace) and the upgrade entry. Paid plans are bought through billing, which is not
 * part of the app yet: until it is, the operator of the server gives a workspace a paid plan with
 * `searchdeck plans set` (docs/operations.md "Plans"), so owners and admins are shown that command
 * with their workspace's id to send them (issue 42 item 20); other members are told to ask them.
 */
import { Button, Card, Code, CopyButton, Divider, Group, Stack, Text } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useSession } from '@/features/auth';
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

/** The operator's command that gives workspace `workspaceId` the Pro plan. */
export function upgradeCommand(workspaceId: string): string {
  return `searchdeck plans set --workspace ${workspaceId} --plan pro`;
}

export function TrialAndUpgradeCard({ plan }: { plan: PlanAnswer }) {
  const { user } = useSession();
  const workspaceId = user?.workspaceId ?? '';
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
        <Stack gap={6} data-testid="upgrade-how">
          <Text fw={600}>{t('plans.upgradeTitle')}</Text>
          {isTopPlan(plan.plan) ? (
            <Text size="sm" c="dimmed">
              {t('plans.upgradeTop')}
            </Text>
          ) : plan.canUpgrade ? (
            <>
              <Text size="sm" c="dimmed">
                {t('plans.upgradeHow')}
              </Text>
              <Group gap="xs" wrap="nowrap" align="center">
                <Code data-testid="upgrade-command" style={{ overflowWrap: 'anywhere' }}>
                  {upgradeCommand(workspaceId)}
                </Code>
                <CopyButton value={upgradeCommand(workspaceId)}>
                  {({ copied, copy }) => (
                    <Button size="compact-sm" variant="light" onClick={copy} leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />} style={{ flexShrink: 0 }}>
                      {copied ? t('plans.upgradeCopied') : t('plans.upgradeCopy')}
                    </Button>
                  )}
                </CopyButton>
              </Group>
              {state === 'available' && (
                <Text size="sm" c="dimmed">
                  {t('plans.upgradeTrialFirst')}
                </Text>
              )}
            </>
          ) : (
            <Text size="sm" c="dimmed">
              {t('plans.upgradeHowMember')}
            </Text>
          )}
        </Stack>
      </Stack>
    </Card>
  );
}
