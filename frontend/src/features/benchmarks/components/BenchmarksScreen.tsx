/**
 * Settings › Benchmarks (`/settings/benchmarks`, every role; docs/screens/benchmarks.md): the
 * workspace's apps (from its synced campaign groups and campaigns), each with its currency and
 * how many targets of each kind it has, linking to the app's targets.
 */
import { Alert, Anchor, Card, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { fill } from '@/lib/money';
import { type BenchmarkApp, useBenchmarkApps } from '../api/get-apps';

export const appPath = (adamId: string) => `/settings/benchmarks/app?adamId=${encodeURIComponent(adamId)}`;

export const appName = (app: Pick<BenchmarkApp, 'adamId' | 'appName'>) => app.appName ?? fill(t('benchmarks.unnamed'), { id: app.adamId });

export function BenchmarksScreen() {
  const apps = useBenchmarkApps();
  return (
    <Stack gap="lg" data-testid="settings-page">
      <Stack gap={4}>
        <Title order={2} size="h3">
          {t('settingsNav.benchmarks')}
        </Title>
        <Text size="sm" c="dimmed" maw={760}>
          {t('benchmarks.intro')}
        </Text>
      </Stack>
      {apps.error && (
        <Alert color="red" role="alert" title={t('benchmarks.loadFailed')}>
          {errorMessage(apps.error)}
        </Alert>
      )}
      {!apps.data && !apps.error && <Skeleton h={240} />}
      {apps.data?.length === 0 && (
        <Alert color="gray" title={t('benchmarks.noApps')}>
          {t('benchmarks.noAppsText')}
        </Alert>
      )}
      {apps.data && apps.data.length > 0 && (
        <Card withBorder padding="lg">
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="sm" aria-label={t('settingsNav.benchmarks')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('benchmarks.col.app')}</Table.Th>
                  <Table.Th w={110}>{t('benchmarks.col.currency')}</Table.Th>
                  <Table.Th w={140} style={{ textAlign: 'right' }}>
                    {t('benchmarks.col.installs')}
                  </Table.Th>
                  <Table.Th w={140} style={{ textAlign: 'right' }}>
                    {t('benchmarks.col.events')}
                  </Table.Th>
                  <Table.Th w={140} style={{ textAlign: 'right' }}>
                    {t('benchmarks.col.revenues')}
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {apps.data.map((app) => (
                  <Table.Tr key={app.adamId}>
                    <Table.Td>
                      <Stack gap={0}>
                        <Anchor component={Link} to={appPath(app.adamId)} fw={600} size="sm" c="inherit" aria-label={fill(t('benchmarks.openApp'), { app: appName(app) })}>
                          {appName(app)}
                        </Anchor>
                        <Text size="xs" c="dimmed">
                          {[app.developerName, app.adamId].filter(Boolean).join(' · ')}
                        </Text>
                      </Stack>
                    </Table.Td>
                    <Table.Td>{app.currency}</Table.Td>
                    <Table.Td style={{ textAlign: 'right' }}>{app.installs}</Table.Td>
                    <Table.Td style={{ textAlign: 'right' }}>{app.events}</Table.Td>
                    <Table.Td style={{ textAlign: 'right' }}>{app.revenues}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      )}
    </Stack>
  );
}
