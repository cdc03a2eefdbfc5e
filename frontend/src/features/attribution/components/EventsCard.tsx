/**
 * The provider's recent events (the newest 50, read again every 10 s) with Send test event
 * (owner, admin, writer), whose answer goes first in the table, marked Test.
 */
import { Alert, Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { showSnackbar } from '@/lib/notifications';
import { useEvents } from '../api/get-events';
import type { Integration } from '../api/get-integrations';
import { useSendTestEvent } from '../api/send-test-event';
import { fill } from '../providers';
import { EditorGuard } from './EditorGuard';
import { EventsTable } from './EventsTable';

export function EventsCard({ item, canEdit }: { item: Integration; canEdit: boolean }) {
  const events = useEvents(item.provider, item.connected);
  const send = useSendTestEvent(item.provider);
  const onSend = () =>
    send.mutate(undefined, {
      onSuccess: () => showSnackbar(t('attribution.testSent')),
      onError: (error) => showSnackbar(errorMessage(error), 'danger'),
    });
  return (
    <Card withBorder component="section" aria-label={t('attribution.eventsTitle')} padding="lg">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="wrap">
          <Stack gap={2}>
            <Title order={3} size="h5">
              {t('attribution.eventsTitle')}
            </Title>
            <Text size="xs" c="dimmed">
              {t('attribution.eventsHint')}
            </Text>
          </Stack>
          <EditorGuard canEdit={canEdit}>
            <Button variant="light" size="sm" leftSection={<IconSend size={16} />} onClick={onSend} loading={send.isPending}>
              {t('attribution.sendTest')}
            </Button>
          </EditorGuard>
        </Group>
        {events.error && !events.data ? (
          <Alert color="red" title={t('attribution.eventsFailed')}>
            {errorMessage(events.error)}
          </Alert>
        ) : !events.data ? (
          <Skeleton h={120} />
        ) : events.data.length === 0 ? (
          <Text size="sm" c="dimmed" ta="center" py="lg" data-testid="no-events">
            {fill(t('attribution.noEvents'), { provider: item.title })}
          </Text>
        ) : (
          <EventsTable events={events.data} />
        )}
      </Stack>
    </Card>
  );
}
