/**
 * Competitor mode of step 1: the app's saved competitors (one store per workspace and app,
 * shared with Settings) with a tick for those to explore, and a search of the App Store to
 * add more (saved through `suggester/competitors`), at most 10 per app.
 */
import { ActionIcon, Avatar, Button, Checkbox, Group, Loader, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { showSnackbar } from '@/lib/notifications';
import { MIN_SEARCH, useFindStoreApps } from '../api/apps';
import { MAX_COMPETITORS, useAddCompetitor, useCompetitors, useRemoveCompetitor, useSuggestedCompetitors } from '../api/competitors';
import type { AppRef } from '../api/types';
import { timing } from '../wizard';

function AppLine({ app, children }: { app: AppRef; children?: ReactNode }) {
  return (
    <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
      <Avatar src={app.icon} size={32} radius="sm" alt="">
        {app.name.slice(0, 1)}
      </Avatar>
      <div style={{ minWidth: 0 }}>
        <Text size="sm" fw={500} truncate>
          {app.name}
        </Text>
        {app.developer && (
          <Text size="xs" c="dimmed" truncate>
            {app.developer}
          </Text>
        )}
      </div>
      {children}
    </Group>
  );
}

export function CompetitorPicker({ app, country, selected, onSelected }: { app: AppRef | null; country: string | null; selected: string[]; onSelected: (ids: string[]) => void }) {
  const adamId = app?.adamId ?? null;
  const saved = useCompetitors(adamId);
  const add = useAddCompetitor(adamId);
  const remove = useRemoveCompetitor(adamId);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, timing.searchDebounceMs);
  const found = useFindStoreApps(app ? debounced : '', country);
  const suggested = useSuggestedCompetitors(adamId, country);
  const competitors = saved.data ?? [];
  const savedIds = new Set(competitors.map((c) => c.adamId));
  const full = competitors.length >= MAX_COMPETITORS;

  if (!app || !country) {
    return (
      <Text size="sm" c="dimmed">
        {t('suggester.competitorsNeedApp')}
      </Text>
    );
  }

  const toggle = (id: string, on: boolean) => onSelected(on ? [...selected.filter((s) => s !== id), id] : selected.filter((s) => s !== id));
  const onAdd = (competitor: AppRef) =>
    add.mutate(
      { competitorId: competitor.adamId, country },
      {
        onSuccess: (item) => onSelected([...selected.filter((s) => s !== item.adamId), item.adamId]),
        onError: (error) => showSnackbar(errorMessage(error), 'danger'),
      },
    );
  const onRemove = (id: string) =>
    remove.mutate(id, {
      onSuccess: () => onSelected(selected.filter((s) => s !== id)),
      onError: (error) => showSnackbar(errorMessage(error), 'danger'),
    });
  const searching = debounced.trim().length >= MIN_SEARCH;
  // Without a search, the App Store's suggestions for the app (saved ones left out).
  const results = (searching ? (found.data ?? []) : (suggested.data ?? [])).filter((a) => a.adamId !== app.adamId && (searching || !savedIds.has(a.adamId)));

  return (
    <Stack gap="sm" data-testid="competitor-picker">
      <Text size="sm" c="dimmed">
        {t('suggester.competitorsHelp')}
      </Text>
      {saved.isPending ? (
        <Loader size="sm" />
      ) : competitors.length === 0 ? (
        <Text size="sm" c="dimmed" fs="italic">
          {t('suggester.competitorsEmpty')}
        </Text>
      ) : (
        <Stack gap={6} data-testid="saved-competitors">
          {competitors.map((competitor) => (
            <Paper key={competitor.adamId} withBorder p="xs" radius="sm">
              <Group justify="space-between" wrap="nowrap">
                <Checkbox
                  checked={selected.includes(competitor.adamId)}
                  onChange={(e) => toggle(competitor.adamId, e.currentTarget.checked)}
                  aria-label={competitor.name}
                  label={<AppLine app={competitor} />}
                  styles={{ body: { alignItems: 'center' } }}
                />
                <ActionIcon variant="subtle" color="gray" aria-label={`${t('suggester.competitorRemove')} ${competitor.name}`} onClick={() => onRemove(competitor.adamId)} loading={remove.isPending && remove.variables === competitor.adamId}>
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
      <TextInput
        label={t('suggester.competitorsSearch')}
        placeholder={t('suggester.competitorsSearchPlaceholder')}
        leftSection={<IconSearch size={16} />}
        rightSection={found.isFetching ? <Loader size="xs" /> : undefined}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        description={full ? t('suggester.competitorLimit') : undefined}
      />
      {!searching && results.length > 0 && (
        <Text size="xs" fw={600} c="dimmed" tt="uppercase">
          {t('suggester.competitorsSuggested')}
        </Text>
      )}
      {searching && !found.isFetching && results.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('suggester.noResults')}
        </Text>
      )}
      {results.length > 0 && (
        <Stack gap={4} data-testid="competitor-results">
          {results.map((result) => (
            <Group key={result.adamId} justify="space-between" wrap="nowrap" px="xs" py={4}>
              <AppLine app={result} />
              <Button
                size="xs"
                variant="light"
                leftSection={<IconPlus size={14} />}
                disabled={savedIds.has(result.adamId) || full}
                loading={add.isPending && add.variables.competitorId === result.adamId}
                onClick={() => onAdd(result)}
                aria-label={`${t('suggester.competitorAdd')} ${result.name}`}
              >
                {t('suggester.competitorAdd')}
              </Button>
            </Group>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
