/**
 * A campaign's alerts on its name cell (docs/api/rules.md Alerts): a warning icon when it has
 * any, opening a list of them (title, message, when) with a Dismiss for each
 * (`DELETE alerts`). The campaigns table asks the alerts of its page's campaigns once
 * (`useCampaignAlerts`) and gives each row its own.
 */
import { ActionIcon, Button, Group, Popover, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { t, tn } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { formatDateTime } from '@/lib/format';
import { showSnackbar } from '@/lib/notifications';
import { useDismissAlerts, type Alert } from '../api/alerts';

export function CampaignAlerts({ alerts, campaignName }: { alerts: Alert[]; campaignName: string }) {
  const dismiss = useDismissAlerts();
  if (alerts.length === 0) return null;
  const onDismiss = async (ids: string[]) => {
    try {
      await dismiss.mutateAsync(ids);
    } catch (error) {
      showSnackbar(errorMessage(error), 'danger');
    }
  };
  return (
    <Popover width={340} position="bottom-start" withArrow shadow="md" withinPortal>
      <Popover.Target>
        <ActionIcon size="sm" variant="subtle" color="orange" aria-label={tn('alerts.open', alerts.length).replace('{name}', campaignName)}>
          <IconAlertTriangle size={16} />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="sm" role="list" aria-label={t('alerts.title')}>
          {alerts.map((alert) => (
            <Stack key={alert.id} gap={2} role="listitem">
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <Text size="sm" fw={600}>
                  {alert.title}
                </Text>
                <Button size="compact-xs" variant="subtle" onClick={() => void onDismiss([alert.id])} loading={dismiss.isPending && dismiss.variables.includes(alert.id)}>
                  {t('alerts.dismiss')}
                </Button>
              </Group>
              {alert.message && <Text size="xs">{alert.message}</Text>}
              <Text size="xs" c="dimmed">
                {formatDateTime(alert.createdAt * 1000)}
              </Text>
            </Stack>
          ))}
          {alerts.length > 1 && (
            <Button size="xs" variant="light" onClick={() => void onDismiss(alerts.map((a) => a.id))}>
              {t('alerts.dismissAll')}
            </Button>
          )}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
