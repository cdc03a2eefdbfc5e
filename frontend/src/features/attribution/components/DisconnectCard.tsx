/** Disconnect (confirmed): the postback URL stops working; the events received stay in the reports. */
import { Button, Card, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { showSnackbar } from '@/lib/notifications';
import { useDisconnect } from '../api/disconnect';
import type { Integration } from '../api/get-integrations';
import { fill } from '../providers';
import { ConfirmModal } from './ConfirmModal';
import { EditorGuard } from './EditorGuard';

export function DisconnectCard({ item, canEdit, onDisconnected }: { item: Integration; canEdit: boolean; onDisconnected: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const disconnect = useDisconnect();
  const title = fill(t('attribution.disconnectTitle'), { provider: item.title });
  const onConfirm = () =>
    disconnect.mutate(item.provider, {
      onSuccess: () => {
        setConfirming(false);
        onDisconnected();
        showSnackbar(fill(t('attribution.disconnected'), { provider: item.title }));
      },
      onError: (error) => {
        setConfirming(false);
        showSnackbar(errorMessage(error), 'danger');
      },
    });
  return (
    <Card withBorder padding="lg" style={{ borderColor: 'var(--mantine-color-red-2)' }}>
      <Group justify="space-between" wrap="wrap" gap="md">
        <Stack gap={2} maw={640}>
          <Text size="sm" fw={600}>
            {fill(t('attribution.disconnectCard'), { provider: item.title })}
          </Text>
          <Text size="sm" c="dimmed">
            {t('attribution.disconnectText')}
          </Text>
        </Stack>
        <EditorGuard canEdit={canEdit}>
          <Button color="red" variant="outline" onClick={() => setConfirming(true)}>
            {t('attribution.disconnect')}
          </Button>
        </EditorGuard>
      </Group>
      <ConfirmModal opened={confirming} title={title} text={t('attribution.disconnectText')} confirmLabel={t('attribution.disconnect')} onConfirm={onConfirm} onClose={() => setConfirming(false)} pending={disconnect.isPending} />
    </Card>
  );
}
