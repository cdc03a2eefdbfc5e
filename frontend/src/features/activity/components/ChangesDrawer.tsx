/**
 * The detail drawer of a notification's grouped changes: every entity it changed
 * (`GET accountsActions/{id}/changes`, pages of 50) with its level, campaign, field and
 * old → new values, and Export CSV of all of them.
 */
import { Button, Drawer, Group, Pagination, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { t, tn } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { downloadCsv } from '@/lib/csv';
import { EMPTY, formatDateTime, formatNumber } from '@/lib/format';
import { showSnackbar } from '@/lib/notifications';
import { CHANGES_PAGE_SIZE, getAllChanges, useChanges } from '../api/changes';
import type { Notification } from '../api/notifications';
import { changesCsv, changesFileName } from '../csv';
import { fieldLabel, levelLabel, valueText } from '../describe';

function useExportChanges() {
  return useMutation({
    mutationFn: async (id: string) => {
      const items = await getAllChanges(id);
      downloadCsv(changesCsv(items), changesFileName(id));
      return items.length;
    },
  });
}

function ChangesTable({ notification }: { notification: Notification }) {
  const [page, setPage] = useState(1);
  const changes = useChanges(notification._id, page);
  const exporter = useExportChanges();
  const exportAll = async () => {
    try {
      const n = await exporter.mutateAsync(notification._id);
      showSnackbar(tn('activity.exported', n, formatNumber(n, 0)));
    } catch (error) {
      showSnackbar(errorMessage(error), 'danger');
    }
  };
  if (changes.error) return <Text c="red" role="alert">{errorMessage(changes.error)}</Text>;
  if (!changes.data) return <Text c="dimmed">{t('common.loading')}</Text>;
  const { items, total } = changes.data;
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {tn('activity.changes', total, formatNumber(total, 0))}
        </Text>
        <Button size="xs" variant="default" leftSection={<IconDownload size={14} />} onClick={() => void exportAll()} loading={exporter.isPending} disabled={total === 0}>
          {t('activity.export')}
        </Button>
      </Group>
      <ScrollArea type="auto">
        <Table striped highlightOnHover withTableBorder aria-label={t('activity.drawer.table')} style={{ whiteSpace: 'nowrap' }}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('activity.col.entity')}</Table.Th>
              <Table.Th>{t('activity.col.level')}</Table.Th>
              <Table.Th>{t('activity.col.campaign')}</Table.Th>
              <Table.Th>{t('activity.col.field')}</Table.Th>
              <Table.Th>{t('activity.col.change')}</Table.Th>
              <Table.Th>{t('activity.col.date')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((c, i) => (
              <Table.Tr key={`${c.level}-${c.entityId}-${c.field}-${i}`}>
                <Table.Td>{c.entityName || c.entityId}</Table.Td>
                <Table.Td>{levelLabel(c.level)}</Table.Td>
                <Table.Td>{c.campaignName || c.campaignId || EMPTY}</Table.Td>
                <Table.Td>{fieldLabel(c.field)}</Table.Td>
                <Table.Td>
                  {valueText(c.oldValue, c.currency)} → {valueText(c.newValue, c.currency)}
                </Table.Td>
                <Table.Td>{formatDateTime(c.dateCreated)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      {total > CHANGES_PAGE_SIZE && <Pagination total={Math.ceil(total / CHANGES_PAGE_SIZE)} value={page} onChange={setPage} />}
    </Stack>
  );
}

export function ChangesDrawer({ notification, onClose }: { notification: Notification | null; onClose: () => void }) {
  return (
    <Drawer
      opened={notification !== null}
      onClose={onClose}
      position="right"
      size="80%"
      title={notification ? `${t('activity.drawer.title')}: ${notification.title}` : t('activity.drawer.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {notification && <ChangesTable key={notification._id} notification={notification} />}
    </Drawer>
  );
}
