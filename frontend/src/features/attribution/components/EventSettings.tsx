/**
 * The provider's event settings: each event name it sent (per app) with what it counts as —
 * Trial, Purchase, Revenue — changed at once and put back when the server refuses. Readers see
 * the checkboxes read-only.
 */
import { Alert, Card, Checkbox, List, Skeleton, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { formatDateTime, formatNumber } from '@/lib/format';
import { showSnackbar } from '@/lib/notifications';
import { useEventNames, type CountsAs, type EventName } from '../api/get-event-names';
import type { Integration } from '../api/get-integrations';
import { useSetEventName } from '../api/set-event-name';
import { fill } from '../providers';

const FLAGS = ['trial', 'purchase', 'revenue'] as const satisfies readonly (keyof CountsAs)[];

function NameRow({ name, canEdit }: { name: EventName; canEdit: boolean }) {
  const set = useSetEventName();
  const toggle = (flag: keyof CountsAs, on: boolean) =>
    set.mutate(
      { provider: name.provider, adamId: name.adamId ?? null, eventName: name.eventName, countsAs: { ...name.countsAs, [flag]: on } },
      { onError: (error) => showSnackbar(errorMessage(error), 'danger') },
    );
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
          {name.eventName}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="xs" ff="monospace" c={name.adamId ? undefined : 'dimmed'}>
          {name.adamId ?? t('attribution.names.anyApp')}
        </Text>
      </Table.Td>
      <Table.Td style={{ textAlign: 'right' }}>
        <Text size="sm">{formatNumber(name.events, 0)}</Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(name.lastSeenAt)}
        </Text>
      </Table.Td>
      {FLAGS.map((flag) => {
        const label = fill(t('attribution.names.toggle'), { name: name.eventName, what: t(`attribution.names.${flag}`) });
        const box = <Checkbox aria-label={label} checked={name.countsAs[flag]} readOnly={!canEdit} disabled={!canEdit} onChange={(e) => toggle(flag, e.currentTarget.checked)} />;
        return (
          <Table.Td key={flag}>
            {canEdit ? (
              box
            ) : (
              <Tooltip label={t('attribution.readerHint')} withArrow>
                <span style={{ display: 'inline-block' }}>{box}</span>
              </Tooltip>
            )}
          </Table.Td>
        );
      })}
    </Table.Tr>
  );
}

export function EventSettings({ item, canEdit }: { item: Integration; canEdit: boolean }) {
  const names = useEventNames(item.provider);
  return (
    <Card withBorder component="section" aria-label={t('attribution.names.title')} padding="lg">
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={3} size="h5">
            {t('attribution.names.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('attribution.names.hint')}
          </Text>
          <List size="xs" c="dimmed" spacing={2}>
            <List.Item>{t('attribution.names.trialHint')}</List.Item>
            <List.Item>{t('attribution.names.purchaseHint')}</List.Item>
            <List.Item>{t('attribution.names.revenueHint')}</List.Item>
          </List>
        </Stack>
        {names.error && !names.data ? (
          <Alert color="red" title={t('attribution.names.failed')}>
            {errorMessage(names.error)}
          </Alert>
        ) : !names.data ? (
          <Skeleton h={80} />
        ) : names.data.length === 0 ? (
          <Text size="sm" c="dimmed" ta="center" py="md">
            {fill(t('attribution.names.none'), { provider: item.title })}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={720}>
            <Table verticalSpacing={6} aria-label={t('attribution.names.title')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('attribution.names.event')}</Table.Th>
                  <Table.Th>{t('attribution.names.app')}</Table.Th>
                  <Table.Th style={{ textAlign: 'right' }}>{t('attribution.names.count')}</Table.Th>
                  <Table.Th>{t('attribution.names.lastSeen')}</Table.Th>
                  {FLAGS.map((flag) => (
                    <Table.Th key={flag} w={110}>
                      {t(`attribution.names.${flag}`)}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {names.data.map((name) => (
                  <NameRow key={`${name.adamId ?? ''}:${name.eventName}`} name={name} canEdit={canEdit} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Card>
  );
}
