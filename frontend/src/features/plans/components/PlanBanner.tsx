/**
 * The top banner (docs/product.md#4-banners): the one `plan/current` answers, else the spend offer
 * of pro_limited (docs/product.md#8-banner-messages: spend over $10,000, days to upgrade), with its
 * button (to Settings › Subscription) or the contact-your-admin text. Closable banners close for
 * good in this browser, per type; appleDataIssues and addCreditLine cannot be closed.
 */
import { Alert, Button, Group, Text } from '@mantine/core';
import { IconAlertTriangle, IconInfoCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useSession } from '@/features/auth';
import { t } from '@/i18n';
import { useCurrentPlan } from '../api/get-current-plan';
import { bannerAction, closeBanner, shownBanner, spendBanner } from '../prompts';

/** Banners that report trouble rather than offer an upgrade. */
const WARNINGS = new Set(['appleDataIssues', 'addCreditLine', 'billingIssue', 'billingBlocked']);

export function PlanBanner() {
  const { user } = useSession();
  const { data } = useCurrentPlan();
  // Bumped on close so the banner re-reads local storage.
  const [, setClosed] = useState(0);
  const banner = shownBanner(data?.banner, window.localStorage) ?? spendBanner(data?.modal, data?.plan, data?.daysLeft, window.localStorage);
  if (!banner || !user) return null;
  const action = bannerAction(banner, user.permission === 'owner' || user.permission === 'admin');
  const warning = WARNINGS.has(banner.type);
  return (
    <Alert
      data-testid="plan-banner"
      data-type={banner.type}
      color={warning ? 'orange' : 'blue'}
      variant="light"
      icon={warning ? <IconAlertTriangle size={18} /> : <IconInfoCircle size={18} />}
      mb="md"
      withCloseButton={banner.closable}
      closeButtonLabel={t('plans.closeBanner')}
      onClose={() => {
        closeBanner(window.localStorage, banner);
        setClosed((n) => n + 1);
      }}
    >
      <Group justify="space-between" gap="sm" wrap="nowrap">
        <Text size="sm">{banner.message}</Text>
        {action?.kind === 'link' && (
          <Button component={Link} to={action.to} size="xs" color={warning ? 'orange' : 'blue'} style={{ flexShrink: 0 }}>
            {action.label}
          </Button>
        )}
        {action?.kind === 'contact' && (
          <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
            {action.text}
          </Text>
        )}
      </Group>
    </Alert>
  );
}
