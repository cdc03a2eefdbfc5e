/**
 * The providers of one kind: name and what it does, status (with a warning badge when the
 * install check fails), last event (how long ago; the
 * exact time on hover), events in the last 24 h, and Connect or Open. Connect makes the URL
 * and opens the provider's page, which shows it once.
 */
import { Anchor, Button, Group, Stack, Table, Text, Tooltip } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { formatDateTime, formatNumber, formatTimeAgo } from '@/lib/format';
import { showSnackbar } from '@/lib/notifications';
import { useConnect } from '../api/connect';
import type { Integration } from '../api/get-integrations';
import { aboutKey, fill, integrationPath } from '../providers';
import { EditorGuard } from './EditorGuard';
import { InstallCheckBadge } from './InstallCheck';
import { StatusBadge } from './StatusBadge';

export function IntegrationsTable({ items, canEdit, label }: { items: Integration[]; canEdit: boolean; label: string }) {
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table verticalSpacing="sm" aria-label={label} layout="fixed">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('attribution.col.provider')}</Table.Th>
            <Table.Th w={170}>{t('attribution.col.status')}</Table.Th>
            <Table.Th w={160}>{t('attribution.col.lastEvent')}</Table.Th>
            <Table.Th w={150} style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
              {t('attribution.col.eventsLastDay')}
            </Table.Th>
            <Table.Th w={130} />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item) => (
            <IntegrationRow key={item.provider} item={item} canEdit={canEdit} />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function IntegrationRow({ item, canEdit }: { item: Integration; canEdit: boolean }) {
  const about = aboutKey(item.provider);
  return (
    <Table.Tr>
      <Table.Td>
        <Stack gap={2}>
          <Anchor component={Link} to={integrationPath(item.provider)} fw={600} size="sm" c="inherit">
            {item.title}
          </Anchor>
          {about && (
            <Text size="xs" c="dimmed" lineClamp={2}>
              {t(about)}
            </Text>
          )}
        </Stack>
      </Table.Td>
      <Table.Td>
        <Stack gap={4} align="flex-start">
          <StatusBadge item={item} />
          <InstallCheckBadge item={item} />
        </Stack>
      </Table.Td>
      <Table.Td>
        {item.lastEventAt ? (
          <Tooltip label={formatDateTime(item.lastEventAt)} withArrow>
            <Text size="sm" span>
              {formatTimeAgo(item.lastEventAt)}
            </Text>
          </Tooltip>
        ) : (
          <Text size="sm" c="dimmed">
            {item.connected ? t('attribution.never') : '—'}
          </Text>
        )}
      </Table.Td>
      <Table.Td style={{ textAlign: 'right' }}>
        <Text size="sm" c={item.connected ? undefined : 'dimmed'}>
          {item.connected ? formatNumber(item.eventsLastDay, 0) : '—'}
        </Text>
      </Table.Td>
      <Table.Td>
        <Group justify="flex-end">{item.connected ? <OpenButton item={item} /> : <ConnectButton item={item} canEdit={canEdit} />}</Group>
      </Table.Td>
    </Table.Tr>
  );
}

function OpenButton({ item }: { item: Integration }) {
  return (
    <Button component={Link} to={integrationPath(item.provider)} variant="default" size="xs" aria-label={fill(t('attribution.openProvider'), { provider: item.title })}>
      {t('attribution.open')}
    </Button>
  );
}

function ConnectButton({ item, canEdit }: { item: Integration; canEdit: boolean }) {
  const navigate = useNavigate();
  const connect = useConnect();
  const onConnect = () =>
    connect.mutate(item.provider, {
      // The new URL travels to the provider's page in the history entry's state, which that
      // page clears at once: a reload or a later visit shows it masked.
      onSuccess: (connected) => void navigate(integrationPath(item.provider), { state: { connected } }),
      onError: (error) => showSnackbar(errorMessage(error), 'danger'),
    });
  return (
    <EditorGuard canEdit={canEdit}>
      <Button size="xs" onClick={onConnect} loading={connect.isPending} aria-label={fill(t('attribution.connectProvider'), { provider: item.title })}>
        {t('attribution.connect')}
      </Button>
    </EditorGuard>
  );
}
