/** What an undo left as it was (changed since, refused by Apple), entity by entity. */
import { Button, Group, Modal, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { t } from '@/i18n';
import type { UndoResult } from '../undo-result';
import { fieldLabel, levelLabel } from '../describe';

export function UndoResultModal({ result, onClose }: { result: UndoResult | null; onClose: () => void }) {
  if (!result) return null;
  return (
    <Modal opened onClose={onClose} title={t('activity.undo.resultTitle')} size="lg" closeButtonProps={{ 'aria-label': t('common.close') }}>
      <Stack gap="md">
        {result.message && <Text size="sm">{result.message}</Text>}
        <Text size="sm" c="dimmed">
          {t('activity.undo.leftText')}
        </Text>
        <ScrollArea.Autosize mah={360} type="auto">
          <Table withTableBorder striped aria-label={t('activity.undo.leftTable')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('activity.col.entity')}</Table.Th>
                <Table.Th>{t('activity.col.level')}</Table.Th>
                <Table.Th>{t('activity.col.field')}</Table.Th>
                <Table.Th>{t('activity.col.why')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {result.left.map((entity, i) => (
                <Table.Tr key={`${entity.entityId}-${entity.field}-${i}`}>
                  <Table.Td>{entity.entityName || entity.entityId}</Table.Td>
                  <Table.Td>{levelLabel(entity.level)}</Table.Td>
                  <Table.Td>{fieldLabel(entity.field)}</Table.Td>
                  <Table.Td>{entity.message}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
        <Group justify="flex-end">
          <Button onClick={onClose}>{t('common.close')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
