/**
 * One list of the account selector: a search box from 5 items, the items in columns of 12
 * (while the list is short enough, docs/product.md#9-account-selector), the spec's
 * text when a search finds nothing.
 */
import { Group, NavLink, ScrollArea, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconCheck, IconSearch } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { t } from '@/i18n';
import { matchName, showsSearch, toColumns, type ListKind } from '../selector';

interface ChoiceListProps<T> {
  kind: ListKind;
  title: string;
  searchLabel: string;
  items: readonly T[];
  itemKey: (item: T) => string;
  name: (item: T) => string;
  isActive: (item: T) => boolean;
  onPick: (item: T) => void;
  /** An entry above the items that never filters away (e.g. 'All campaign groups'). */
  leading?: ReactNode;
  action?: ReactNode;
}

export function ChoiceItem({ label, active, onClick }: { label: string; active: boolean; onClick: () => void }) {
  return (
    <NavLink
      component="button"
      type="button"
      py={6}
      label={
        <Text size="sm" truncate="end" title={label} fw={active ? 600 : 400}>
          {label}
        </Text>
      }
      active={active}
      aria-label={label}
      aria-pressed={active}
      rightSection={active ? <IconCheck size={14} /> : null}
      onClick={onClick}
      style={{ borderRadius: 'var(--mantine-radius-sm)' }}
    />
  );
}

export function ChoiceList<T>({ kind, title, searchLabel, items, itemKey, name, isActive, onPick, leading, action }: ChoiceListProps<T>) {
  const [query, setQuery] = useState('');
  const found = matchName(items, query, name);
  const columns = toColumns(found, kind);
  // The unfiltered layout's width, kept while searching so the popover does not jump.
  const fullWidth = Math.max(1, toColumns(items, kind).length) * 190;
  const renderColumn = (column: T[], index: number) => (
    <Stack gap={2} key={index} miw={180} maw={220} data-column={index + 1}>
      {column.map((item) => (
        <ChoiceItem key={itemKey(item)} label={name(item)} active={isActive(item)} onClick={() => onPick(item)} />
      ))}
    </Stack>
  );
  return (
    <Stack gap="xs" role="group" aria-label={title} miw={fullWidth}>
      <Group justify="space-between" gap="xs" mih={28} wrap="nowrap">
        <Text size="xs" fw={700} tt="uppercase" c="dimmed">
          {title}
        </Text>
        {action}
      </Group>
      {showsSearch(items.length) && (
        <TextInput
          size="xs"
          placeholder={searchLabel}
          aria-label={searchLabel}
          leftSection={<IconSearch size={14} />}
          value={query}
          onChange={(event) => setQuery(event.currentTarget.value)}
        />
      )}
      {leading}
      {items.length === 0 && !leading ? (
        <Text size="sm" c="dimmed" py="xs">
          {t('accounts.noneYet')}
        </Text>
      ) : found.length === 0 && query.trim() !== '' ? (
        <Stack gap={2} py="sm" maw={220}>
          <Text size="sm" fw={600}>
            {t('accounts.noResultsTitle')}
          </Text>
          <Text size="xs" c="dimmed">
            {t('accounts.noResultsText')}
          </Text>
        </Stack>
      ) : columns.length > 1 ? (
        <SimpleGrid cols={columns.length} spacing="xs" data-testid={`${kind}-columns`}>
          {columns.map(renderColumn)}
        </SimpleGrid>
      ) : (
        <ScrollArea.Autosize mah={360} type="auto" data-testid={`${kind}-columns`}>
          {columns.map(renderColumn)}
        </ScrollArea.Autosize>
      )}
    </Stack>
  );
}
