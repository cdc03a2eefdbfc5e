/**
 * A connected provider's setup: the postback URL as stored (masked, `…abcd`) with Rotate URL
 * (confirmed: the old URL stops working at once), the method, and the steps in the provider's
 * own dashboard as a numbered list.
 */
import { Badge, Button, Card, Code, Group, List, Stack, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { showSnackbar } from '@/lib/notifications';
import type { Connected } from '../api/connect';
import type { Integration } from '../api/get-integrations';
import { useRotate } from '../api/rotate';
import { fill } from '../providers';
import { ConfirmModal } from './ConfirmModal';
import { EditorGuard } from './EditorGuard';

interface Props {
  item: Integration;
  canEdit: boolean;
  /** The full URL is shown above (just made): the masked one is not repeated. */
  fresh: boolean;
  onRotated: (connected: Connected) => void;
}

export function SetupCard({ item, canEdit, fresh, onRotated }: Props) {
  const [confirming, setConfirming] = useState(false);
  const rotate = useRotate();
  const setup = item.setup;
  const onRotate = () =>
    rotate.mutate(item.provider, {
      onSuccess: (connected) => {
        setConfirming(false);
        onRotated(connected);
        showSnackbar(t('attribution.rotated'));
      },
      onError: (error) => {
        setConfirming(false);
        showSnackbar(errorMessage(error), 'danger');
      },
    });
  return (
    <Card withBorder component="section" aria-label={t('attribution.setupTitle')} padding="lg">
      <Stack gap="md">
        <Title order={3} size="h5">
          {t('attribution.setupTitle')}
        </Title>
        {setup && !fresh && (
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              {t('attribution.urlLabel')}
            </Text>
            <Group gap="sm" align="center" wrap="wrap">
              <Code data-testid="masked-url" style={{ overflowWrap: 'anywhere', fontSize: 13, padding: '6px 10px' }}>
                {setup.url}
              </Code>
              <EditorGuard canEdit={canEdit}>
                <Button variant="default" size="xs" leftSection={<IconRefresh size={14} />} onClick={() => setConfirming(true)}>
                  {t('attribution.rotate')}
                </Button>
              </EditorGuard>
            </Group>
            <Text size="xs" c="dimmed">
              {t('attribution.maskedHint')}
            </Text>
          </Stack>
        )}
        {setup && (
          <Group gap="xs">
            <Text size="sm" fw={600}>
              {t('attribution.method')}
            </Text>
            <Badge variant="outline" color="gray" radius="sm" data-testid="method">
              {setup.method}
            </Badge>
          </Group>
        )}
        {setup && setup.steps.length > 0 && (
          <Stack gap={6}>
            <Text size="sm" fw={600}>
              {fill(t('attribution.steps'), { provider: item.title })}
            </Text>
            <List type="ordered" spacing={6} size="sm" aria-label={fill(t('attribution.steps'), { provider: item.title })} maw={820} styles={{ itemWrapper: { overflowWrap: 'anywhere' } }}>
              {setup.steps.map((step) => (
                <List.Item key={step}>{step}</List.Item>
              ))}
            </List>
          </Stack>
        )}
      </Stack>
      <ConfirmModal
        opened={confirming}
        title={t('attribution.rotateTitle')}
        text={fill(t('attribution.rotateText'), { provider: item.title })}
        confirmLabel={t('attribution.rotate')}
        onConfirm={onRotate}
        onClose={() => setConfirming(false)}
        pending={rotate.isPending}
      />
    </Card>
  );
}
