/**
 * A plan limit reached (docs/product.md#8-limit-reached: error message LIMIT_HAS_BEEN_REACHED with
 * `meta.type`): the title of the limit, the text for the user's plan ('Do you want to expand the
 * limits?' on pro or pro-trial plans, else 'Upgrade to full or pro, or buy another demo') and the
 * 'Expand' button to settings/subscription. Any limit reached also opens the layout's limit
 * modal (features/plans); screens that start a limited action show this notice too, where the
 * action failed, so the reason stays in view once the modal is closed.
 */
import { Alert, Button, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { t, type MessageKey } from '@/i18n';

const TITLES: Record<string, MessageKey> = {
  AVAILABLETARGETINGKEYWORDSGROUPS: 'limit.groups',
  AVAILABLERULESCAMPAIGNS: 'limit.rulesCampaigns',
  AVAILABLERULES: 'limit.rules',
  AVAILABLECAMPAIGNS: 'limit.campaigns',
  AVAILABLEAPPS: 'limit.apps',
  AVAILABLEDEVS: 'limit.apps',
};

export const SUBSCRIPTION_PATH = '/settings/subscription';

/**
 * The title of a limit type (docs/product.md#8-limit-reached); an unknown type reads as the
 * campaigns'.
 */
export function limitTitle(type: string): string {
  return t(TITLES[type] ?? 'limit.campaigns');
}

/** Whether a user's purchase (docs/product.md#3-purchase) is a pro or pro-trial plan. */
export function isProPlan(purchase: Record<string, unknown> | null | undefined): boolean {
  const name = typeof purchase?.name === 'string' ? purchase.name.toLowerCase() : '';
  return name === 'pro' || name === 'pro_trial';
}

export function LimitNotice({ type, pro }: { type: string; pro: boolean }) {
  return (
    <Alert color="orange" variant="light" title={limitTitle(type)} data-testid="limit-notice">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{t(pro ? 'limit.expandText' : 'limit.upgradeText')}</Text>
        <Button component={Link} to={SUBSCRIPTION_PATH} size="xs">
          {t('limit.expand')}
        </Button>
      </Stack>
    </Alert>
  );
}
