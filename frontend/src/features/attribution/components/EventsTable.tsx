/**
 * Events as received: time, kind, event name, the Apple Ads ids (strings: they pass 2^53),
 * claim type, country, revenue in its currency (a refund in red), install day and Test.
 */
import { Badge, Group, Table, Text, Tooltip } from '@mantine/core';
import { t } from '@/i18n';
import { EMPTY, formatDate, formatDateTime, formatMoney, formatTimeAgo } from '@/lib/format';
import type { AttributionEvent } from '../api/get-events';

function claimText(claim: string | null | undefined): string {
  if (claim === 'Click') return t('attribution.ev.Click');
  if (claim === 'Impression') return t('attribution.ev.Impression');
  return claim ?? EMPTY;
}

function Id({ value, empty = EMPTY }: { value: string | null | undefined; empty?: string }) {
  return (
    <Text size="xs" ff="monospace" c={value ? undefined : 'dimmed'} style={{ whiteSpace: 'nowrap' }}>
      {value ?? empty}
    </Text>
  );
}

function Revenue({ event }: { event: AttributionEvent }) {
  if (event.revenue === null || event.revenue === undefined || event.revenue === '') return <Text size="sm" c="dimmed">{EMPTY}</Text>;
  const negative = Number(event.revenue) < 0;
  return (
    <Text size="sm" c={negative ? 'red.7' : undefined} fw={negative ? 600 : undefined} data-negative={negative || undefined} style={{ whiteSpace: 'nowrap' }}>
      {formatMoney(event.revenue, event.currency)}
    </Text>
  );
}

function EventRow({ event }: { event: AttributionEvent }) {
  return (
    <Table.Tr data-testid="event-row">
      <Table.Td>
        <Tooltip label={formatDateTime(event.receivedAt)} withArrow>
          <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
            {formatTimeAgo(event.receivedAt)}
          </Text>
        </Tooltip>
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap">
          <Badge size="sm" variant="light" color={event.kind === 'install' ? 'blue' : 'grape'} tt="none">
            {event.kind === 'install' ? t('attribution.ev.install') : t('attribution.ev.event')}
          </Badge>
          {event.test && (
            <Badge size="sm" variant="outline" color="orange" tt="none">
              {t('attribution.ev.test')}
            </Badge>
          )}
        </Group>
      </Table.Td>
      <Table.Td>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {event.eventName}
        </Text>
      </Table.Td>
      <Table.Td>
        <Id value={event.campaignId} />
      </Table.Td>
      <Table.Td>
        <Id value={event.adGroupId} />
      </Table.Td>
      <Table.Td>
        <Id value={event.keywordId} empty={event.adGroupId ? t('attribution.ev.searchMatch') : EMPTY} />
      </Table.Td>
      <Table.Td>
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {claimText(event.claimType)}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{event.country ?? EMPTY}</Text>
      </Table.Td>
      <Table.Td style={{ textAlign: 'right' }}>
        <Revenue event={event} />
      </Table.Td>
      <Table.Td>
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatDate(event.installDay)}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}

export function EventsTable({ events }: { events: AttributionEvent[] }) {
  return (
    <Table.ScrollContainer minWidth={1040}>
      <Table striped highlightOnHover verticalSpacing={6} aria-label={t('attribution.eventsTitle')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('attribution.ev.received')}</Table.Th>
            <Table.Th>{t('attribution.ev.kind')}</Table.Th>
            <Table.Th>{t('attribution.ev.name')}</Table.Th>
            <Table.Th>{t('attribution.ev.campaign')}</Table.Th>
            <Table.Th>{t('attribution.ev.adGroup')}</Table.Th>
            <Table.Th>{t('attribution.ev.keyword')}</Table.Th>
            <Table.Th>{t('attribution.ev.claim')}</Table.Th>
            <Table.Th>{t('attribution.ev.country')}</Table.Th>
            <Table.Th style={{ textAlign: 'right' }}>{t('attribution.ev.revenue')}</Table.Th>
            <Table.Th>{t('attribution.ev.installDay')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {events.map((event) => (
            <EventRow key={event.dedupeId} event={event} />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
