/**
 * Settings › Integrations (`/settings/integrations`, every role; docs/screens/attribution.md):
 * every provider the server knows, by kind (attribution providers, revenue, custom), each with
 * its status, last event, events in the last 24 h and Connect (owner, admin, writer) or Open;
 * then App Store Connect, the revenue Apple itself reports (`AppStoreConnectCard`).
 */
import { Alert, Card, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useSession } from '@/features/auth';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { useIntegrations } from '../api/get-integrations';
import { canChange, KINDS, ofKind } from '../providers';
import { AppStoreConnectCard } from './AppStoreConnectCard';
import { IntegrationsTable } from './IntegrationsTable';

export function IntegrationsScreen() {
  const { user } = useSession();
  const list = useIntegrations();
  if (!user) return null;
  const canEdit = canChange(user.permission);
  return (
    <Stack gap="lg" data-testid="settings-page">
      <Stack gap={4}>
        <Title order={2} size="h3">
          {t('settingsNav.integrations')}
        </Title>
        <Text size="sm" c="dimmed" maw={760}>
          {t('attribution.intro')}
        </Text>
      </Stack>
      {list.error && (
        <Alert color="red" role="alert" title={t('attribution.loadFailed')}>
          {errorMessage(list.error)}
        </Alert>
      )}
      {!list.data && !list.error && <Skeleton h={320} />}
      {list.data &&
        KINDS.map((kind) => {
          const items = ofKind(list.data, kind);
          if (items.length === 0) return null;
          return (
            <Card withBorder component="section" key={kind} aria-label={t(`attribution.kind.${kind}`)} padding="lg">
              <Stack gap="sm">
                <Stack gap={2}>
                  <Title order={3} size="h5">
                    {t(`attribution.kind.${kind}`)}
                  </Title>
                  <Text size="sm" c="dimmed">
                    {t(`attribution.kind.${kind}Hint`)}
                  </Text>
                </Stack>
                <IntegrationsTable items={items} canEdit={canEdit} label={t(`attribution.kind.${kind}`)} />
              </Stack>
            </Card>
          );
        })}
      <AppStoreConnectCard canEdit={canEdit} />
    </Stack>
  );
}
