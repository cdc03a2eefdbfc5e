/**
 * The report table's header: a checkbox selecting every row of the page, then one header
 * per column, which sorts on the server (descending first, then ascending, then unsorted)
 * and shows a badge on a column the plan locks: Growth on the Growth-only columns, Pro with
 * the group's message on the Conversions and Cohort columns pro_limited locks.
 */
import { Badge, Box, Checkbox, Group, Table, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import type { Ref } from 'react';
import { t } from '@/i18n';
import { labelKey, type ColumnDef } from '../../columns';
import type { SortOrder } from '../../url-state';
import { message } from '../cells';
import { HEAD_BG, numeric, selectCell, sticky } from './layout';

export type Sort = { field: string; order: SortOrder } | null;

export function nextSort(current: Sort, field: string): Sort {
  if (current?.field !== field) return { field, order: 'desc' };
  return current.order === 'desc' ? { field, order: 'asc' } : null;
}

/** How the plan locks a column: Growth-only, or Pro with its group's message. */
export type ColumnLock = { plan: 'growth' } | { plan: 'pro'; message: string };

function LockBadge({ lock }: { lock: ColumnLock }) {
  const pro = lock.plan === 'pro';
  return (
    <Tooltip label={pro ? lock.message : t('table.lockedHint')} withArrow>
      <Badge size="xs" variant={pro ? 'light' : 'gradient'} color="orange" gradient={{ from: 'violet', to: 'blue' }} tt="none">
        {pro ? t('table.pro') : t('table.growth')}
      </Badge>
    </Tooltip>
  );
}

function ColumnHeader({ column, sort, lock, onSort }: { column: ColumnDef; sort: Sort; lock: ColumnLock | undefined; onSort: (sort: Sort) => void }) {
  const active = sort?.field === column.field ? sort.order : null;
  const Icon = active === 'asc' ? IconArrowUp : active === 'desc' ? IconArrowDown : IconArrowsSort;
  const label = message(labelKey(column.field), column.field);
  return (
    <Group gap={6} wrap="nowrap">
      <UnstyledButton onClick={() => onSort(nextSort(sort, column.field))} aria-label={label} title={active ? t(active === 'asc' ? 'table.sortAsc' : 'table.sortDesc') : undefined}>
        <Group gap={4} wrap="nowrap">
          <Text span size="xs" fw={700} tt="uppercase" c={active ? 'blue' : 'dimmed'} style={{ whiteSpace: 'nowrap' }}>
            {label}
          </Text>
          <Icon size={13} color={active ? 'var(--mantine-color-blue-6)' : 'var(--mantine-color-gray-5)'} aria-hidden />
        </Group>
      </UnstyledButton>
      {lock && <LockBadge lock={lock} />}
    </Group>
  );
}

export interface HeaderRowProps {
  /** The header row, measured for a long page's frozen widths. */
  rowRef: Ref<HTMLTableRowElement>;
  defs: ColumnDef[];
  sort: Sort;
  onSort: (sort: Sort) => void;
  /** The columns the plan locks, and how. */
  locks: ReadonlyMap<string, ColumnLock>;
  pageIds: string[];
  allOnPage: boolean;
  someOnPage: boolean;
  onSelect: (ids: string[], on: boolean) => void;
}

export function HeaderRow({ rowRef, defs, sort, onSort, locks, pageIds, allOnPage, someOnPage, onSelect }: HeaderRowProps) {
  return (
    <Table.Tr ref={rowRef}>
      <Table.Th style={selectCell(HEAD_BG)}>
        <Checkbox
          size="xs"
          aria-label={t('table.selectPage')}
          checked={allOnPage}
          indeterminate={someOnPage && !allOnPage}
          disabled={pageIds.length === 0}
          onChange={() => onSelect(pageIds, !allOnPage)}
        />
      </Table.Th>
      {defs.map((def, index) => {
        const order = sort?.field === def.field ? (sort.order === 'asc' ? 'ascending' : 'descending') : undefined;
        return (
          <Table.Th key={def.field} aria-sort={order} style={{ ...sticky(index, HEAD_BG), textAlign: numeric(def) ? 'right' : undefined }}>
            <Box style={{ display: 'flex', justifyContent: numeric(def) ? 'flex-end' : 'flex-start' }}>
              <ColumnHeader column={def} sort={sort} lock={locks.get(def.field)} onSort={onSort} />
            </Box>
          </Table.Th>
        );
      })}
    </Table.Tr>
  );
}
