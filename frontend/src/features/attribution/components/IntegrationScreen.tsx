/**
 * Settings › Integrations › a provider (`/settings/integration?provider=<name>`, every role;
 * writes for owners, admins and writers; docs/screens/attribution.md). Not connected: what it
 * does and Connect. Connected: the new URL once after Connect or Rotate, the install check
 * (an alert with the likeliest cause when the installs do not arrive), the setup (the masked
 * URL, the method, the steps, Rotate URL), the API pull where the provider has one, the recent
 * events with Send test event, the provider's
 * event settings and Disconnect. An unknown provider shows a not-found state.
 */
import { Anchor, Alert, Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useSession } from '@/features/auth';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { formatDate } from '@/lib/format';
import { showSnackbar } from '@/lib/notifications';
import { useConnect, type Connected } from '../api/connect';
import { EVENTS_POLL_MS } from '../api/get-events';
import { useIntegrations, type Integration } from '../api/get-integrations';
import { aboutKey, canChange, fill } from '../providers';
import { DisconnectCard } from './DisconnectCard';
import { EditorGuard } from './EditorGuard';
import { EventSettings } from './EventSettings';
import { EventsCard } from './EventsCard';
import { InstallCheckAlert } from './InstallCheck';
import { NewUrlPanel } from './NewUrlPanel';
import { PullCard } from './PullCard';
import { SetupCard } from './SetupCard';
import { StatusBadge } from './StatusBadge';

const LIST_PATH = '/settings/integrations';

/** The answer the list's Connect passed in the history entry's state, if it is this provider's. */
function connectedFromState(state: unknown, provider: string): Connected | null {
  if (typeof state !== 'object' || state === null || !('connected' in state)) return null;
  const connected = (state as { connected: Connected }).connected;
  return connected.item.provider === provider ? connected : null;
}

export function IntegrationScreen() {
  const { user } = useSession();
  const [params] = useSearchParams();
  const provider = params.get('provider') ?? '';
  const list = useIntegrations(EVENTS_POLL_MS);
  const item = list.data?.find((i) => i.provider === provider);
  if (!user) return null;
  return (
    <Stack gap="lg" data-testid="settings-page">
      <Anchor component={Link} to={LIST_PATH} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} aria-hidden />
          {t('attribution.back')}
        </Group>
      </Anchor>
      {list.error ? (
        <Alert color="red" role="alert" title={t('attribution.loadFailed')}>
          {errorMessage(list.error)}
        </Alert>
      ) : !list.data ? (
        <Skeleton h={320} />
      ) : item ? (
        <ProviderPage key={item.provider} item={item} canEdit={canChange(user.permission)} />
      ) : (
        <UnknownProvider provider={provider} />
      )}
    </Stack>
  );
}

function UnknownProvider({ provider }: { provider: string }) {
  return (
    <Card withBorder padding="xl" data-testid="unknown-provider">
      <Stack gap="xs" align="flex-start">
        <Title order={2} size="h4">
          {t('attribution.unknownTitle')}
        </Title>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {fill(t('attribution.unknownText'), { provider })}
        </Text>
        <Button component={Link} to={LIST_PATH} variant="light" mt="sm">
          {t('attribution.back')}
        </Button>
      </Stack>
    </Card>
  );
}

function ProviderPage({ item, canEdit }: { item: Integration; canEdit: boolean }) {
  const location = useLocation();
  const navigate = useNavigate();
  // The URL shown once: the answer of this page's Connect or Rotate, or of the list's Connect.
  const [fresh, setFresh] = useState<Connected | null>(() => connectedFromState(location.state, item.provider));
  useEffect(() => {
    if (location.state !== null && location.state !== undefined) void navigate(`${location.pathname}${location.search}`, { replace: true, state: null });
  }, [location.state, location.pathname, location.search, navigate]);
  const about = aboutKey(item.provider);
  return (
    <>
      <Stack gap={4}>
        <Group gap="sm" align="center">
          <Title order={2} size="h3">
            {item.title}
          </Title>
          <StatusBadge item={item} />
        </Group>
        {about && (
          <Text size="sm" c="dimmed" maw={760}>
            {t(about)}
          </Text>
        )}
        {item.connected && item.connectedAt && (
          <Text size="xs" c="dimmed">
            {fill(t('attribution.connectedAt'), { date: formatDate(item.connectedAt) })}
          </Text>
        )}
      </Stack>
      {!item.connected ? (
        <NotConnected item={item} canEdit={canEdit} onConnected={setFresh} />
      ) : (
        <>
          {fresh && <NewUrlPanel connected={fresh} />}
          <InstallCheckAlert item={item} />
          <SetupCard item={item} canEdit={canEdit} fresh={fresh !== null} onRotated={setFresh} />
          <PullCard item={item} canEdit={canEdit} />
          <EventsCard item={item} canEdit={canEdit} />
          <EventSettings item={item} canEdit={canEdit} />
          <DisconnectCard item={item} canEdit={canEdit} onDisconnected={() => setFresh(null)} />
        </>
      )}
    </>
  );
}

function NotConnected({ item, canEdit, onConnected }: { item: Integration; canEdit: boolean; onConnected: (c: Connected) => void }) {
  const connect = useConnect();
  const onConnect = () =>
    connect.mutate(item.provider, {
      onSuccess: (connected) => {
        onConnected(connected);
        showSnackbar(fill(t('attribution.connected'), { provider: item.title }));
      },
      onError: (error) => showSnackbar(errorMessage(error), 'danger'),
    });
  return (
    <Card withBorder padding="lg">
      <Stack gap="md" align="flex-start">
        <Text size="sm" maw={760}>
          {fill(t('attribution.notConnectedText'), { provider: item.title })}
        </Text>
        <EditorGuard canEdit={canEdit}>
          <Button onClick={onConnect} loading={connect.isPending}>
            {fill(t('attribution.connectProvider'), { provider: item.title })}
          </Button>
        </EditorGuard>
      </Stack>
    </Card>
  );
}
