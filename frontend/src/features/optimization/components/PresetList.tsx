/**
 * The column presets of a table type in the edit-columns modal: choose one, rename or delete
 * a saved one (Default cannot be deleted or renamed). Names follow the preset rules.
 */
import { ActionIcon, Chip, Group, Text, TextInput, Tooltip } from '@mantine/core';
import { IconCheck, IconPencil, IconTrash, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { showSnackbar } from '@/lib/notifications';
import type { ColumnPreset } from '../api/column-presets';
import { useColumnPresetMutations } from '../api/save-column-preset';
import type { Level } from '../paths';
import { MAX_PRESETS, presetNameProblem } from '../presets';
import { nameProblemText } from './preset-messages';

interface Props {
  level: Level;
  presets: ColumnPreset[];
  current: ColumnPreset;
  onChoose: (preset: ColumnPreset) => void;
}

function Rename({ preset, names, onDone }: { preset: ColumnPreset; names: string[]; onDone: () => void }) {
  const { update } = useColumnPresetMutations(preset.type);
  const [name, setName] = useState(preset.name);
  const problem = presetNameProblem(name, names, preset.name);
  const save = async () => {
    if (problem) return;
    try {
      await update.mutateAsync({ id: preset._id, name: name.trim() });
      onDone();
    } catch (e) {
      showSnackbar(errorMessage(e), 'danger');
    }
  };
  return (
    <Group gap={4} wrap="nowrap" align="flex-start">
      <TextInput
        size="xs"
        aria-label={t('presets.name')}
        value={name}
        maxLength={50}
        autoFocus
        onChange={(e) => setName(e.currentTarget.value)}
        onKeyDown={(e) => e.key === 'Enter' && void save()}
        error={nameProblemText(problem)}
      />
      <ActionIcon variant="light" aria-label={t('presets.saveName')} onClick={() => void save()} disabled={problem !== null} loading={update.isPending}>
        <IconCheck size={14} />
      </ActionIcon>
      <ActionIcon variant="subtle" color="gray" aria-label={t('common.cancel')} onClick={onDone}>
        <IconX size={14} />
      </ActionIcon>
    </Group>
  );
}

export function PresetList({ level, presets, current, onChoose }: Props) {
  const { remove } = useColumnPresetMutations(level);
  const [renaming, setRenaming] = useState<string | null>(null);
  const names = presets.map((p) => p.name);
  const saved = presets.filter((p) => !p.isDefault).length;
  const del = async (preset: ColumnPreset) => {
    try {
      await remove.mutateAsync(preset._id);
      if (current._id === preset._id) onChoose(presets.find((p) => p.isDefault)!);
      showSnackbar(t('presets.deleted'));
    } catch (e) {
      showSnackbar(errorMessage(e), 'danger');
    }
  };
  return (
    <div>
      <Group justify="space-between" mb={6}>
        <Text size="sm" fw={600}>
          {t('columns.presets')}
        </Text>
        <Text size="xs" c="dimmed">
          {saved}/{MAX_PRESETS} {t('presets.saved')}
        </Text>
      </Group>
      <Group gap={8} data-testid="column-presets">
        {presets.map((preset) =>
          renaming === preset._id ? (
            <Rename key={preset._id} preset={preset} names={names} onDone={() => setRenaming(null)} />
          ) : (
            <Group key={preset._id} gap={2} wrap="nowrap">
              <Chip size="sm" checked={current._id === preset._id} onChange={() => onChoose(preset)} variant="outline">
                {preset.name}
              </Chip>
              {!preset.isDefault && (
                <ActionIcon size="sm" variant="subtle" color="gray" aria-label={`${t('presets.rename')} ${preset.name}`} onClick={() => setRenaming(preset._id)}>
                  <IconPencil size={13} />
                </ActionIcon>
              )}
              <Tooltip label={t('presets.defaultUndeletable')} disabled={!preset.isDefault} withArrow>
                <ActionIcon
                  size="sm"
                  variant="subtle"
                  color="red"
                  aria-label={`${t('presets.delete')} ${preset.name}`}
                  disabled={preset.isDefault}
                  onClick={() => void del(preset)}
                >
                  <IconTrash size={13} />
                </ActionIcon>
              </Tooltip>
            </Group>
          ),
        )}
      </Group>
    </div>
  );
}
