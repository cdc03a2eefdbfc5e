/**
 * Settings › Benchmarks › an app (`/settings/benchmarks/app?adamId=…`, every role;
 * docs/screens/benchmarks.md): three tabs — installs (cost per install), events (cost per
 * event of an MMP event picked from those the providers sent) and revenue (ROAS per cohort
 * window) — each an editable table per country beside the published reference figures. Owners,
 * admins and writers save with the PATCH many calls; readers see the values read-only.
 */
import { Alert, Anchor, Group, Skeleton, Stack, Tabs, Text, Title } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { useSession } from '@/features/auth';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { useCountries } from '../api/get-lists';
import { useInstallTargets } from '../api/get-targets';
import { appName } from './BenchmarksScreen';
import { EventsTab } from './EventsTab';
import { InstallsTab } from './InstallsTab';
import { RevenuesTab } from './RevenuesTab';

export function BenchmarkAppScreen() {
  const [params] = useSearchParams();
  const adamId = params.get('adamId') ?? '';
  const { user } = useSession();
  if (!/^[1-9]\d{0,17}$/.test(adamId)) {
    return (
      <Stack gap="md" data-testid="settings-page">
        <Back />
        <Alert color="gray" title={t('benchmarks.noAppTitle')}>
          {t('benchmarks.noAppText')}
        </Alert>
      </Stack>
    );
  }
  if (!user) return null;
  return <AppTargets adamId={adamId} canEdit={user.permission !== 'reader'} />;
}

function Back() {
  return (
    <Anchor component={Link} to="/settings/benchmarks" size="sm">
      ← {t('benchmarks.back')}
    </Anchor>
  );
}

function AppTargets({ adamId, canEdit }: { adamId: string; canEdit: boolean }) {
  const installs = useInstallTargets(adamId);
  const countries = useCountries().data ?? [];
  const app = installs.data;
  // Only the workspace's apps take targets (the server answers 400 for any other).
  const editable = canEdit && app?.currency != null;
  return (
    <Stack gap="lg" data-testid="settings-page">
      <Stack gap={4}>
        <Back />
        <Group gap="xs" align="baseline">
          <Title order={2} size="h3">
            {app ? appName({ adamId, appName: app.appName }) : t('settingsNav.benchmarks')}
          </Title>
          {app?.currency && (
            <Text size="sm" c="dimmed">
              {app.currency}
              {app.category ? ` · ${app.category}` : ''}
            </Text>
          )}
        </Group>
      </Stack>
      {installs.error && (
        <Alert color="red" role="alert" title={t('benchmarks.loadFailed')}>
          {errorMessage(installs.error)}
        </Alert>
      )}
      {!app && !installs.error && <Skeleton h={320} />}
      {app && app.currency == null && <Alert color="yellow">{t('benchmarks.notWorkspaceApp')}</Alert>}
      {app && (
        <Tabs defaultValue="installs" keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="installs">{t('benchmarks.tab.installs')}</Tabs.Tab>
            <Tabs.Tab value="events">{t('benchmarks.tab.events')}</Tabs.Tab>
            <Tabs.Tab value="revenues">{t('benchmarks.tab.revenues')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="installs" pt="md">
            <InstallsTab adamId={adamId} data={app} canEdit={editable} countries={countries} />
          </Tabs.Panel>
          <Tabs.Panel value="events" pt="md">
            <EventsTab adamId={adamId} currency={app.currency ?? 'USD'} canEdit={editable} countries={countries} />
          </Tabs.Panel>
          <Tabs.Panel value="revenues" pt="md">
            <RevenuesTab adamId={adamId} canEdit={editable} countries={countries} />
          </Tabs.Panel>
        </Tabs>
      )}
    </Stack>
  );
}
