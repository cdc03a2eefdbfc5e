/**
 * App Store Connect on Settings › Integrations (docs/screens/attribution.md "App Store
 * Connect"): the workspace's team keys, each with its status (Active once daily sales were
 * read, else Loading data), the apps it sees, the last day read, the last error in the user's
 * words and its apps' proceeds of the last 30 days; Connect opens the form (issuer id, key id,
 * vendor number, the .p8 file) and Disconnect asks first. Readers see everything and change
 * nothing.
 */
import { Alert, Badge, Button, Card, FileInput, Group, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useController } from 'react-hook-form';
import { Form, SubmitButton, TextField, useZodForm } from '@/components/form';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { formatDate, formatDateTime } from '@/lib/format/date';
import { formatMoney } from '@/lib/format/number';
import { showSnackbar } from '@/lib/notifications';
import { connectAppStoreInputSchema, useConnectAppStore, type ConnectAppStoreInput, type ConnectAppStoreValues } from '../api/connect-app-store';
import { useDisconnectAppStore } from '../api/disconnect-app-store';
import { useAppStoreConnections, type AppStoreConnection } from '../api/get-app-store-connections';
import { totalsByApp, useAppStoreProceeds } from '../api/get-app-store-proceeds';
import { fill } from '../providers';
import { ConfirmModal } from './ConfirmModal';
import { EditorGuard } from './EditorGuard';

/** How often the list is read again while a key's backfill is loading. */
const LOADING_POLL_MS = 3000;

/** YYYY-MM-DD of the UTC day `daysBack` days before today. */
function utcDay(daysBack: number, now = Date.now()): string {
  return new Date(now - daysBack * 86_400_000).toISOString().slice(0, 10);
}

export function AppStoreConnectCard({ canEdit }: { canEdit: boolean }) {
  const [polling, setPolling] = useState(false);
  const list = useAppStoreConnections(polling ? LOADING_POLL_MS : false);
  const [editing, setEditing] = useState(false);
  const items = list.data ?? [];
  const loading = items.some((c) => !c.history && !c.lastError);
  if (loading !== polling) setPolling(loading);
  return (
    <Card withBorder component="section" aria-label={t('appStoreConnect.title')} padding="lg" data-testid="app-store-connect-card">
      <Stack gap="sm">
        <Stack gap={2}>
          <Title order={3} size="h5">
            {t('appStoreConnect.title')}
          </Title>
          <Text size="sm" c="dimmed" maw={760}>
            {t('appStoreConnect.text')}
          </Text>
        </Stack>
        {list.error && (
          <Alert color="red" role="alert" title={t('appStoreConnect.loadFailed')}>
            {errorMessage(list.error)}
          </Alert>
        )}
        {!list.data && !list.error && <Skeleton h={80} />}
        {list.data && items.length === 0 && !editing && (
          <Text size="sm" c="dimmed">
            {t('appStoreConnect.empty')}
          </Text>
        )}
        {items.map((c) => (
          <ConnectionRow key={c.id} connection={c} canEdit={canEdit} />
        ))}
        {editing ? (
          <ConnectForm onDone={() => setEditing(false)} />
        ) : (
          <Group>
            <EditorGuard canEdit={canEdit}>
              <Button variant="light" onClick={() => setEditing(true)}>
                {items.length > 0 ? t('appStoreConnect.connectAnother') : t('appStoreConnect.connect')}
              </Button>
            </EditorGuard>
          </Group>
        )}
      </Stack>
    </Card>
  );
}

function ConnectionRow({ connection: c, canEdit }: { connection: AppStoreConnection; canEdit: boolean }) {
  const [confirming, setConfirming] = useState(false);
  const remove = useDisconnectAppStore();
  const onRemove = () =>
    remove.mutate(c.id, {
      onSuccess: () => {
        setConfirming(false);
        showSnackbar(fill(t('appStoreConnect.disconnected'), { key: c.keyId }));
      },
      onError: (error) => {
        setConfirming(false);
        showSnackbar(errorMessage(error), 'danger');
      },
    });
  const status = c.history ? { color: 'green', label: t('attribution.status.Active') } : { color: 'yellow', label: t('attribution.status.Loading data') };
  return (
    <Card withBorder padding="md" radius="sm" data-testid="app-store-connection">
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap">
          <Group gap="sm">
            <Text fw={600}>{fill(t('appStoreConnect.keyLabel'), { key: c.name })}</Text>
            <Badge color={status.color} variant="light" tt="none">
              {status.label}
            </Badge>
          </Group>
          <EditorGuard canEdit={canEdit}>
            <Button color="red" variant="subtle" size="xs" onClick={() => setConfirming(true)}>
              {t('appStoreConnect.disconnect')}
            </Button>
          </EditorGuard>
        </Group>
        <Text size="sm" c="dimmed">
          {fill(t('appStoreConnect.vendor'), { vendor: c.vendorNumber })} · {c.apps.length > 0 ? fill(t('appStoreConnect.apps'), { apps: c.apps.map((a) => a.name).join(', ') }) : t('appStoreConnect.noApps')}
        </Text>
        <Text size="sm" c="dimmed">
          {c.lastDay ? fill(t('appStoreConnect.lastDay'), { day: formatDate(c.lastDay) }) : t('appStoreConnect.loading')}
          {c.lastSuccessAt ? ` · ${formatDateTime(c.lastSuccessAt)}` : ''}
        </Text>
        {c.lastError && (
          <Alert color="red" role="alert" title={t('appStoreConnect.failed')}>
            {c.lastError}
          </Alert>
        )}
        {c.history && <ProceedsSummary connection={c} />}
      </Stack>
      <ConfirmModal
        opened={confirming}
        title={fill(t('appStoreConnect.disconnectTitle'), { key: c.keyId })}
        text={t('appStoreConnect.disconnectText')}
        confirmLabel={t('appStoreConnect.disconnect')}
        onConfirm={onRemove}
        onClose={() => setConfirming(false)}
        pending={remove.isPending}
      />
    </Card>
  );
}

/** Each app's units and proceeds over the last 30 complete days. */
function ProceedsSummary({ connection }: { connection: AppStoreConnection }) {
  const [from, through] = [utcDay(30), utcDay(1)];
  const proceeds = useAppStoreProceeds(connection.id, from, through, true);
  if (proceeds.error) return <Text size="sm" c="red">{errorMessage(proceeds.error)}</Text>;
  if (!proceeds.data) return <Skeleton h={60} />;
  const totals = totalsByApp(proceeds.data);
  if (totals.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('appStoreConnect.noSales')}
      </Text>
    );
  }
  return (
    <Table withTableBorder={false} striped={false} aria-label={t('appStoreConnect.summary')} verticalSpacing={4} fz="sm">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('appStoreConnect.col.app')}</Table.Th>
          <Table.Th ta="right">{t('appStoreConnect.col.units')}</Table.Th>
          <Table.Th ta="right">
            {t('appStoreConnect.col.proceeds')} · {t('appStoreConnect.summary')}
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {totals.map((a) => (
          <Table.Tr key={`${a.adamId}:${a.currency}`}>
            <Table.Td>{a.appName || String(a.adamId)}</Table.Td>
            <Table.Td ta="right">{a.units.toLocaleString()}</Table.Td>
            <Table.Td ta="right">{formatMoney(a.proceeds, a.currency)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function ConnectForm({ onDone }: { onDone: () => void }) {
  const form = useZodForm<ConnectAppStoreValues, ConnectAppStoreInput>(connectAppStoreInputSchema, { issuerId: '', keyId: '', vendorNumber: '', key: null });
  const { mutateAsync } = useConnectAppStore();
  const file = useController({ control: form.control, name: 'key' });
  const onSubmit = async (values: ConnectAppStoreInput) => {
    const item = await mutateAsync(values);
    showSnackbar(fill(t('appStoreConnect.connected'), { key: item.keyId }));
    onDone();
  };
  return (
    <Form form={form} onSubmit={onSubmit} name={t('appStoreConnect.title')}>
      <TextField control={form.control} name="issuerId" label={t('appStoreConnect.issuerId')} description={t('appStoreConnect.issuerIdHint')} autoComplete="off" />
      <TextField control={form.control} name="keyId" label={t('appStoreConnect.keyId')} description={t('appStoreConnect.keyIdHint')} autoComplete="off" />
      <TextField control={form.control} name="vendorNumber" label={t('appStoreConnect.vendorNumber')} description={t('appStoreConnect.vendorNumberHint')} inputMode="numeric" />
      <FileInput
        name="key"
        label={t('appStoreConnect.key')}
        description={t('appStoreConnect.keyHint')}
        placeholder={t('appStoreConnect.keyPlaceholder')}
        accept=".p8,application/pkcs8,application/x-pem-file,text/plain"
        value={file.field.value}
        onChange={(f) => file.field.onChange(f)}
        onBlur={file.field.onBlur}
        error={file.fieldState.error?.message}
        clearable
      />
      <Group>
        <SubmitButton>{t('appStoreConnect.save')}</SubmitButton>
        <Button variant="subtle" onClick={onDone}>
          {t('appStoreConnect.cancel')}
        </Button>
      </Group>
    </Form>
  );
}
