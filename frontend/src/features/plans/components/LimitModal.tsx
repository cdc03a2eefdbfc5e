/**
 * The limit modal (docs/product.md#8-limit-reached, width 380 by
 * docs/product.md#9-timings-and-sizes): opens on any `LIMIT_HAS_BEEN_REACHED` answer of any API
 * call (the client reports them, lib/limit-events), once: a second limit while it is open changes
 * nothing. Title by `meta.type`; text 'Do you want to expand the limits?' on pro and pro_trial,
 * else 'Upgrade to full or pro, or buy another demo'; 'Expand' leads to Settings › Subscription.
 * Roles that may not upgrade read the contact-your-admin text.
 */
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { limitTitle } from '@/components/LimitNotice';
import { t } from '@/i18n';
import { onLimitReached } from '@/lib/limit-events';
import { useCurrentPlan } from '../api/get-current-plan';
import { limitText, SUBSCRIPTION_PATH } from '../prompts';

export const LIMIT_MODAL_WIDTH = 380;
const LIMIT_MODAL_STYLES = { title: { fontWeight: 700 } } as const;

export function LimitModal() {
  const [type, setType] = useState<string | null>(null);
  const navigate = useNavigate();
  const { data } = useCurrentPlan();
  useEffect(() => onLimitReached((next) => setType((open) => open ?? next)), []);
  if (type === null) return null;
  const close = () => setType(null);
  return (
    <Modal opened onClose={close} title={limitTitle(type)} size={LIMIT_MODAL_WIDTH} centered styles={LIMIT_MODAL_STYLES}>
      <Stack gap="md" data-testid="limit-modal" data-type={type}>
        <Text size="sm">{limitText(data?.plan)}</Text>
        {data && !data.canUpgrade && (
          <Text size="sm" c="dimmed">
            {t('plans.contactAdminUpgrade')}
          </Text>
        )}
        <Group justify="flex-end">
          {data && !data.canUpgrade ? (
            <Button onClick={close}>{t('plans.gotIt')}</Button>
          ) : (
            <Button
              onClick={() => {
                close();
                void navigate(SUBSCRIPTION_PATH);
              }}
            >
              {t('limit.expand')}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
