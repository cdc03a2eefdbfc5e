/**
 * Account Settings › Subscription (docs/product.md#2-url-paths-and-access, owner and admin): the
 * plan and its free-trial status, last month's spend against the free plan's threshold, the plan's
 * limits, the Pro trial and the upgrade entry, and the workspace's purchases.
 */
import { Alert, Loader, SimpleGrid, Stack, Title } from '@mantine/core';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { useCurrentPlan } from '../api/get-current-plan';
import { PlanLimitsCard } from './PlanLimitsCard';
import { PlanSummaryCard } from './PlanSummaryCard';
import { PurchasesCard } from './PurchasesCard';
import { SpendCard } from './SpendCard';
import { TrialAndUpgradeCard } from './TrialAndUpgradeCard';

export function SubscriptionSettings() {
  const plan = useCurrentPlan();
  return (
    <Stack gap="lg" data-testid="settings-page">
      <Title order={2} size="h3">
        {t('title.settingsSubscription')}
      </Title>
      {plan.isPending && <Loader aria-label={t('common.loading')} />}
      {plan.isError && (
        <Alert color="red" title={t('plans.loadFailed')}>
          {errorMessage(plan.error)}
        </Alert>
      )}
      {plan.data && (
        <>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
            <PlanSummaryCard plan={plan.data} />
            <SpendCard plan={plan.data} />
          </SimpleGrid>
          <TrialAndUpgradeCard plan={plan.data} />
          <PlanLimitsCard limits={plan.data.limits} usage={plan.data.usage} />
          <PurchasesCard />
        </>
      )}
    </Stack>
  );
}
