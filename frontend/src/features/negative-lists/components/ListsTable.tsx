/** The workspace's negative keyword lists: each one's terms and places counted, edit, and delete after a confirmation. */
import { Alert, Badge, Button, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { formatNumber } from '@/lib/format';
import { showSnackbar } from '@/lib/notifications';
import { useDeleteNegativeList } from '../api/delete-negative-list';
import { useNegativeLists } from '../api/get-negative-lists';

export function Lists({ canEdit, onEdit }: { canEdit: boolean; onEdit: (listId: string | null) => void }) {
  const lists = useNegativeLists();
  const remove = useDeleteNegativeList();
  const [confirming, setConfirming] = useState<string | null>(null);
  return (
    <Stack gap="sm" data-testid="negative-lists">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {t('negLists.help')}
        </Text>
        <Button size="xs" leftSection={<IconPlus size={14} />} onClick={() => onEdit(null)} disabled={!canEdit}>
          {t('negLists.new')}
        </Button>
      </Group>
      {lists.isLoading && <Loader size="sm" aria-label={t('common.loading')} />}
      {lists.error && <Alert color="red">{errorMessage(lists.error)}</Alert>}
      {lists.data && lists.data.length === 0 && (
        <Text size="sm" c="dimmed" ta="center" py="md">
          {t('negLists.empty')}
        </Text>
      )}
      {lists.data && lists.data.length > 0 && (
        <Table verticalSpacing={6}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('negLists.name')}</Table.Th>
              <Table.Th style={{ textAlign: 'right' }}>{t('negLists.keywords')}</Table.Th>
              <Table.Th style={{ textAlign: 'right' }}>{t('negLists.places')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {lists.data.map((list) => (
              <Table.Tr key={list._id}>
                <Table.Td>{list.name}</Table.Td>
                <Table.Td style={{ textAlign: 'right' }}>{formatNumber(list.keywordsCount, 0)}</Table.Td>
                <Table.Td style={{ textAlign: 'right' }}>
                  <Badge variant="light" tt="none">
                    {formatNumber(list.placesCount, 0)}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    <Button size="compact-xs" variant="subtle" onClick={() => onEdit(list._id)} aria-label={`${t('negLists.edit')}: ${list.name}`}>
                      {t('negLists.edit')}
                    </Button>
                    <Button
                      size="compact-xs"
                      variant={confirming === list._id ? 'filled' : 'subtle'}
                      color="red"
                      disabled={!canEdit}
                      loading={remove.isPending && confirming === list._id}
                      aria-label={`${confirming === list._id ? t('negLists.confirmDelete') : t('negLists.delete')}: ${list.name}`}
                      onClick={() => {
                        if (confirming !== list._id) {
                          setConfirming(list._id);
                          return;
                        }
                        remove.mutate(list._id, { onSuccess: () => setConfirming(null), onError: (e) => showSnackbar(errorMessage(e), 'danger') });
                      }}
                    >
                      {confirming === list._id ? t('negLists.confirmDelete') : t('negLists.delete')}
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
