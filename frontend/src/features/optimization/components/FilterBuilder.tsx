/**
 * The filter builder (docs/product.md#2-screens-and-routes, docs/product.md#5-filters): a Filters
 * button showing how many apply, opening a modal to add, change and remove filters of the level's
 * types, apply saved filter presets, and save the filters as a preset (name required and unique, at
 * most 10 per table type: the save option is disabled with the spec's tooltip). The tag filter is
 * disabled with the spec's text while the level has no tags. Only valid filters are applied.
 */
import { ActionIcon, Alert, Badge, Button, Chip, Divider, Group, Menu, Modal, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconFilter, IconPlus, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { t, type MessageKey } from '@/i18n';
import { ApiError, errorMessage } from '@/lib/api-error';
import { showSnackbar } from '@/lib/notifications';
import { useAllTags, type Tag } from '../api/tags';
import { emptyFilter, filterTypesOf, isValidFilter, type Filter } from '../filters';
import { useFilterPresets } from '../hooks/usePresetOptions';
import type { Level } from '../paths';
import { addFilterPreset, canSaveFilterPreset, filterPresetsOf, presetNameProblem, removeFilterPreset, type FilterPreset } from '../presets';
import { FilterRow } from './FilterRow';
import { nameProblemText } from './preset-messages';

interface Props {
  level: Level;
  filters: Filter[];
  onApply: (filters: Filter[]) => void;
}

export function FilterBuilder({ level, filters, onApply }: Props) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        variant={filters.length ? 'light' : 'default'}
        size="sm"
        leftSection={<IconFilter size={16} />}
        rightSection={filters.length ? <Badge size="xs" circle>{filters.length}</Badge> : null}
        onClick={() => setOpened(true)}
      >
        {t('filters.button')}
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={t('filters.title')} size={760} styles={{ body: { minHeight: 300 } }}>
        {opened && (
          <FilterEditor
            level={level}
            initial={filters}
            onCancel={() => setOpened(false)}
            onApply={(next) => {
              setOpened(false);
              onApply(next);
            }}
          />
        )}
      </Modal>
    </>
  );
}

function tagsOf(all: Record<string, Tag[]> | undefined, level: Level): Tag[] {
  return all?.[level] ?? [];
}

function FilterEditor({ level, initial, onCancel, onApply }: { level: Level; initial: Filter[]; onCancel: () => void; onApply: (f: Filter[]) => void }) {
  const [draft, setDraft] = useState<Filter[]>(initial);
  const tags = useAllTags();
  const levelTags = tagsOf(tags.data, level);
  const { presets, save, saving } = useFilterPresets();
  const own = filterPresetsOf(presets, level);
  const canSave = canSaveFilterPreset(presets, level);
  const [saveOpen, setSaveOpen] = useState(false);
  const [name, setName] = useState('');
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const valid = draft.filter(isValidFilter);
  const problem = presetNameProblem(name, own.map((p) => p.name));

  const savePreset = async () => {
    setTouched(true);
    const preset = { name, type: level, filters: valid };
    const next = addFilterPreset(presets, preset);
    if (!Array.isArray(next)) {
      if (next === 'empty') setError(t('filters.nothingToSave'));
      return;
    }
    try {
      // Added to the presets as saved now: another tab may have saved one in between.
      await save((current) => {
        const merged = addFilterPreset(current, preset);
        if (!Array.isArray(merged)) throw new Error(merged === 'limit' ? t('presets.limitReached') : (nameProblemText(merged === 'empty' ? null : merged) ?? t('filters.nothingToSave')));
        return merged;
      });
      setSaveOpen(false);
      setName('');
      setTouched(false);
      showSnackbar(t('filters.presetSaved'));
    } catch (e) {
      setError(e instanceof Error && !(e instanceof ApiError) ? e.message : errorMessage(e));
    }
  };
  const deletePreset = async (preset: FilterPreset) => {
    try {
      await save((current) => removeFilterPreset(current, level, preset.name));
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  return (
    <Stack gap="md">
      {own.length > 0 && (
        <div>
          <Text size="sm" fw={600} mb={6}>
            {t('filters.presets')}
          </Text>
          <Group gap={6} data-testid="filter-presets">
            {own.map((preset) => (
              <Group key={preset.name} gap={0} wrap="nowrap">
                <Chip size="sm" checked={false} onChange={() => onApply(preset.filters)} variant="outline">
                  {preset.name}
                </Chip>
                <ActionIcon size="sm" variant="subtle" color="gray" aria-label={`${t('presets.delete')} ${preset.name}`} onClick={() => void deletePreset(preset)}>
                  <IconX size={12} />
                </ActionIcon>
              </Group>
            ))}
          </Group>
        </div>
      )}
      <Stack gap={8} data-testid="filter-rows">
        {draft.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('filters.none')}
          </Text>
        )}
        {draft.map((filter, index) => (
          <FilterRow
            key={index}
            index={index}
            level={level}
            filter={filter}
            tags={levelTags}
            onChange={(next) => setDraft((list) => list.map((f, i) => (i === index ? next : f)))}
            onRemove={() => setDraft((list) => list.filter((_, i) => i !== index))}
          />
        ))}
      </Stack>
      <Menu position="bottom-start" withinPortal={false}>
        <Menu.Target>
          <Button variant="subtle" size="xs" leftSection={<IconPlus size={14} />} style={{ alignSelf: 'flex-start' }}>
            {t('filters.add')}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {filterTypesOf(level).map((type) => {
            const noTags = type === 'tag' && levelTags.length === 0;
            const item = (
              <Menu.Item key={type} disabled={noTags} style={noTags ? { pointerEvents: 'none' } : undefined} onClick={() => setDraft((list) => [...list, emptyFilter(type)])}>
                {t(`filters.type.${type}` as MessageKey)}
              </Menu.Item>
            );
            return noTags ? (
              <Tooltip key={type} label={t('filters.noTags')} position="right" withArrow multiline w={240}>
                <div>{item}</div>
              </Tooltip>
            ) : (
              item
            );
          })}
        </Menu.Dropdown>
      </Menu>
      <Divider />
      {saveOpen ? (
        <Group gap={6} align="flex-start">
          <TextInput
            size="xs"
            w={260}
            label={t('presets.name')}
            value={name}
            maxLength={50}
            autoFocus
            withAsterisk
            onChange={(e) => {
              setName(e.currentTarget.value);
              setTouched(true);
            }}
            error={touched ? nameProblemText(problem) : null}
          />
          <Button size="xs" mt={22} onClick={() => void savePreset()} loading={saving} disabled={valid.length === 0 || (touched && problem !== null)}>
            {t('filters.savePreset')}
          </Button>
          <Button size="xs" mt={22} variant="default" onClick={() => setSaveOpen(false)}>
            {t('common.cancel')}
          </Button>
        </Group>
      ) : (
        <Tooltip label={t('presets.limitReached')} disabled={canSave} withArrow position="top-start">
          <div style={{ alignSelf: 'flex-start' }}>
            <Button size="xs" variant="default" disabled={!canSave || valid.length === 0} onClick={() => setSaveOpen(true)}>
              {t('filters.saveAsPreset')}
            </Button>
          </div>
        </Tooltip>
      )}
      {error && <Alert color="red">{error}</Alert>}
      <Group justify="space-between">
        <Button variant="subtle" color="gray" onClick={() => onApply([])} disabled={initial.length === 0 && draft.length === 0}>
          {t('filters.clear')}
        </Button>
        <Group gap="xs">
          <Button variant="default" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button onClick={() => onApply(valid)} disabled={draft.length > 0 && valid.length !== draft.length}>
            {t('filters.apply')}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
