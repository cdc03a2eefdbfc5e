/**
 * The app picker of step 1: the campaign group's apps (`asa/apps`), and any App Store app
 * found by the text typed (`suggester/competitors/findApp`), in two groups.
 */
import { Avatar, Group, Select, Text, type ComboboxItem, type ComboboxItemGroup } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { t } from '@/i18n';
import { MIN_SEARCH, useFindStoreApps, useGroupApps } from '../api/apps';
import type { AppRef, Scope } from '../api/types';
import { timing } from '../wizard';

interface AppOption extends ComboboxItem {
  app: AppRef;
}

const optionOf = (app: AppRef): AppOption => ({ value: app.adamId, label: app.name, app });

export function AppPicker({ scope, country, value, onChange }: { scope: Scope | null; country: string | null; value: AppRef | null; onChange: (app: AppRef | null) => void }) {
  const groupApps = useGroupApps(scope);
  const [search, setSearch] = useState(value?.name ?? '');
  const [debounced] = useDebouncedValue(search, timing.searchDebounceMs);
  // Searching for the chosen app's own name is not a search.
  const storeQuery = debounced === value?.name ? '' : debounced;
  const found = useFindStoreApps(storeQuery, country);
  const text = search.trim().toLowerCase();

  const { data, byId } = useMemo(() => {
    const own = groupApps.data ?? [];
    const ownIds = new Set(own.map((a) => a.adamId));
    const matching = own.filter((a) => text === '' || text === value?.name.toLowerCase() || a.name.toLowerCase().includes(text) || a.adamId === text);
    const store: AppRef[] = storeQuery.trim().length >= MIN_SEARCH ? (found.data ?? []).filter((a) => !ownIds.has(a.adamId)) : [];
    const groups: ComboboxItemGroup<AppOption>[] = [];
    const ownItems = matching.map(optionOf);
    if (value && !ownIds.has(value.adamId) && !store.some((a) => a.adamId === value.adamId)) store.unshift(value);
    if (ownItems.length > 0) groups.push({ group: t('suggester.appGroup'), items: ownItems });
    if (store.length > 0) groups.push({ group: t('suggester.appStore'), items: store.map(optionOf) });
    const map = new Map<string, AppRef>([...own, ...store].map((a) => [a.adamId, a]));
    return { data: groups, byId: map };
  }, [groupApps.data, found.data, storeQuery, text, value]);

  return (
    <Select
      label={t('suggester.app')}
      placeholder={t('suggester.appPlaceholder')}
      searchable
      clearable
      data={data}
      value={value?.adamId ?? null}
      searchValue={search}
      onSearchChange={setSearch}
      onChange={(id) => onChange(id ? (byId.get(id) ?? null) : null)}
      filter={({ options }) => options}
      nothingFoundMessage={found.isFetching ? t('suggester.appSearching') : t('suggester.noResults')}
      error={groupApps.error ? groupApps.error.message : undefined}
      renderOption={({ option }) => {
        const { app } = option as AppOption;
        return (
          <Group gap="sm" wrap="nowrap">
            <Avatar src={app.icon} size={28} radius="sm" alt="">
              {app.name.slice(0, 1)}
            </Avatar>
            <div>
              <Text size="sm">{app.name}</Text>
              {app.developer && (
                <Text size="xs" c="dimmed">
                  {app.developer}
                </Text>
              )}
            </div>
          </Group>
        );
      }}
      data-testid="app-picker"
    />
  );
}
