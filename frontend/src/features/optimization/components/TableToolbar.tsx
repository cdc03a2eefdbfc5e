/**
 * The bar above a level's table: the filter builder, the edit-columns button (with the
 * selected column preset's name), how many rows are selected, the CSV export of the
 * current view (every page of it, or only the selected rows), and on the campaigns and
 * negative keywords levels the negative keyword lists.
 */
import { Button, Group, Menu, Text } from '@mantine/core';
import { IconColumns3, IconDownload, IconListDetails } from '@tabler/icons-react';
import { useState } from 'react';
import { NegativeListsModal } from '@/features/negative-lists';
import { t, tn } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { formatNumber } from '@/lib/format';
import { showSnackbar } from '@/lib/notifications';
import type { ReportRequest } from '../api/report';
import type { Filter } from '../filters';
import { useExportCsv } from '../hooks/useExportCsv';
import type { VisibleColumns } from '../hooks/useVisibleColumns';
import type { Level } from '../paths';
import { EditColumnsModal } from './EditColumnsModal';
import { FilterBuilder } from './FilterBuilder';
import { negativeListPlaces } from './NegativeListPlaces';

interface Props {
  level: Level;
  filters: Filter[];
  onFilters: (filters: Filter[]) => void;
  columns: VisibleColumns;
  request: ReportRequest;
  selected: ReadonlySet<string>;
  idField: string;
  onClearSelection: () => void;
}

export function TableToolbar({ level, filters, onFilters, columns, request, selected, idField, onClearSelection }: Props) {
  const [editing, setEditing] = useState(false);
  const [lists, setLists] = useState(false);
  const withLists = (level === 'CAMPAIGNS' || level === 'NEGATIVE') && request.orgId !== null;
  const exporter = useExportCsv();
  const run = (onlySelected: boolean) =>
    exporter.mutate(
      { request, columns: columns.fields, only: onlySelected ? { field: idField, ids: new Set(selected) } : undefined },
      {
        onSuccess: (rows) => showSnackbar(`${t('export.done')} ${tn('table.rowCount', rows, formatNumber(rows, 0))}`),
        onError: (e) => showSnackbar(`${t('export.failed')} ${errorMessage(e)}`, 'danger'),
      },
    );
  return (
    <Group justify="space-between" wrap="wrap" gap="xs" data-testid="table-toolbar">
      <Group gap="xs">
        <FilterBuilder level={level} filters={filters} onApply={onFilters} />
        <Button variant="default" size="sm" leftSection={<IconColumns3 size={16} />} onClick={() => setEditing(true)} disabled={!columns.selected}>
          {t('columns.button')}
          {columns.selected && !columns.selected.isDefault && (
            <Text span size="xs" c="dimmed" ml={6}>
              · {columns.selected.name}
            </Text>
          )}
        </Button>
      </Group>
      <Group gap="xs">
        {selected.size > 0 && (
          <Group gap={4} data-testid="selection-count">
            <Text size="sm" fw={600}>
              {formatNumber(selected.size, 0)} {t('table.selected')}
            </Text>
            <Button variant="subtle" size="compact-sm" color="gray" onClick={onClearSelection}>
              {t('table.clearSelection')}
            </Button>
          </Group>
        )}
        {withLists && (
          <Button variant="default" size="sm" leftSection={<IconListDetails size={16} />} onClick={() => setLists(true)} data-testid="negative-lists-button">
            {t('negLists.button')}
          </Button>
        )}
        <Menu position="bottom-end" shadow="md">
          <Menu.Target>
            <Button variant="default" size="sm" leftSection={<IconDownload size={16} />} loading={exporter.isPending}>
              {t('export.button')}
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={() => run(false)}>{t('export.all')}</Menu.Item>
            <Menu.Item onClick={() => run(true)} disabled={selected.size === 0}>
              {t('export.selected')} ({formatNumber(selected.size, 0)})
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
      {withLists && request.orgId !== null && (
        <NegativeListsModal opened={lists} onClose={() => setLists(false)} accountId={request.accountId} orgId={request.orgId} campaignId={request.campaignId} places={negativeListPlaces} />
      )}
      {columns.selected && (
        <EditColumnsModal opened={editing} onClose={() => setEditing(false)} level={level} presets={columns.presets} selected={columns.selected} onSelect={columns.select} />
      )}
    </Group>
  );
}
