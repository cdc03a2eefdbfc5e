/**
 * The header's upgrade button (docs/product.md#2-layout): for owners and admins
 * (docs/product.md#6-roles-and-route-limits: only they upgrade), below the top plans, and hidden on
 * the subscription page it leads to.
 */
import { Button } from '@mantine/core';
import { IconRocket } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { t } from '@/i18n';
import { useCurrentPlan } from '../api/get-current-plan';
import { isTopPlan } from '../api/plan';
import { SUBSCRIPTION_PATH } from '../prompts';

export function UpgradeButton() {
  const { pathname } = useLocation();
  const { data } = useCurrentPlan();
  if (!data?.canUpgrade || isTopPlan(data.plan) || pathname === SUBSCRIPTION_PATH) return null;
  return (
    <Button component={Link} to={SUBSCRIPTION_PATH} leftSection={<IconRocket size={16} />} variant="gradient" size="sm">
      {t('plans.upgrade')}
    </Button>
  );
}
