/**
 * The edit-columns modal (docs/product.md#2-tables, docs/product.md#5-column-presets): pick a
 * column preset, tick the columns of the level (grouped as the server lists them: Attributes,
 * Metrics, Conversions, Cohort; locked ones with their plan's badge, a group the plan locks
 * whole with its message), and apply. Applying changes a saved preset's columns; the built-in Default
 * cannot change, so new columns over it are saved as a new preset (name required and unique, at
 * most 10: the save option is disabled with the spec's tooltip). Saved presets can be
 * renamed and deleted; Default cannot be deleted.
 */
import { Alert, Badge, Button, Checkbox, Group, Loader, Modal, ScrollArea, SimpleGrid, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { useState } from 'react';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { showSnackbar } from '@/lib/notifications';
import { useColumnGroups, type ColumnGroup, type ColumnPreset } from '../api/column-presets';
import { useColumnPresetMutations } from '../api/save-column-preset';
import { labelKey, nameColumn } from '../columns';
import type { Level } from '../paths';
import { canSaveColumnPreset, presetColumns, presetNameProblem } from '../presets';
import { message } from '../format-value';
import { nameProblemText } from './preset-messages';
import { PresetList } from './PresetList';

/**
 * The message of a group whose every column the plan locks with Pro (pro_limited's
 * Conversions and Cohort: 'Upgrade to Pro to track events from your MMP.'), shown under its
 * title; null when the group is open or only some columns are locked (each has its badge).
 */
export function groupLock(group: ColumnGroup): string | null {
  const locked = group.fields.filter((f) => f.locked && f.lock === 'pro');
  if (locked.length === 0 || locked.length !== group.fields.length) return null;
  return locked[0]?.lockMessage ?? null;
}

interface Props {
  opened: boolean;
  onClose: () => void;
  level: Level;
  presets: ColumnPreset[];
  selected: ColumnPreset;
  onSelect: (id: string) => Promise<unknown>;
}

export function EditColumnsModal({ opened, onClose, ...rest }: Props) {
  return (
    <Modal opened={opened} onClose={onClose} title={t('columns.title')} size={720} styles={{ body: { minHeight: 300 } }}>
      {opened && <EditColumns onClose={onClose} {...rest} />}
    </Modal>
  );
}

function EditColumns({ onClose, level, presets, selected, onSelect }: Omit<Props, 'opened'>) {
  const groups = useColumnGroups(level);
  const { create, update } = useColumnPresetMutations(level);
  const [current, setCurrent] = useState(selected);
  const [fields, setFields] = useState(() => presetColumns(level, selected.fields));
  const [saveAs, setSaveAs] = useState(false);
  const [name, setName] = useState('');
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const nameCol = nameColumn(level);
  const canSave = canSaveColumnPreset(presets);
  const changed = fields.join() !== presetColumns(level, current.fields).join();
  const mustSaveAs = current.isDefault && changed;
  const saving = saveAs || mustSaveAs;
  const problem = saving ? presetNameProblem(name, presets.map((p) => p.name)) : null;

  const choose = (preset: ColumnPreset) => {
    setCurrent(preset);
    setFields(presetColumns(level, preset.fields));
    setError(null);
  };
  const toggle = (key: string, on: boolean) => setFields((list) => (on ? [...list, key] : list.filter((f) => f !== key)));

  const apply = async () => {
    setTouched(true);
    setError(null);
    if (saving && (problem || !canSave)) return;
    try {
      if (saving) {
        const preset = await create.mutateAsync({ name: name.trim(), fields });
        await onSelect(preset._id);
        showSnackbar(t('columns.saved'));
      } else {
        if (changed) await update.mutateAsync({ id: current._id, fields });
        if (current._id !== selected._id) await onSelect(current._id);
      }
      onClose();
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  const limitTip = t('presets.limitReached');
  return (
    <Stack gap="md">
      <PresetList level={level} presets={presets} current={current} onChoose={choose} />
      {groups.isLoading ? (
        <Loader size="sm" aria-label={t('common.loading')} />
      ) : groups.error ? (
        <Alert color="red">{errorMessage(groups.error)}</Alert>
      ) : (
        <ScrollArea.Autosize mah="45vh" type="auto">
          <Stack gap="md" data-testid="column-groups">
            {groups.data?.map((group) => (
              <Stack key={group.name} gap={6}>
                <Text size="xs" fw={700} tt="uppercase" c="dimmed">
                  {message(`columns.group.${group.name}`, group.name)}
                </Text>
                {groupLock(group) && (
                  <Text size="xs" c="orange.8" data-testid={`group-lock-${group.name}`}>
                    {groupLock(group)}
                  </Text>
                )}
                <SimpleGrid cols={{ base: 2, sm: 3 }} spacing={6} verticalSpacing={6}>
                  {group.fields.map((col) => (
                    <Group key={col.key} gap={4} wrap="nowrap">
                      <Checkbox
                        size="xs"
                        label={message(labelKey(col.key), col.key)}
                        checked={fields.includes(col.key)}
                        disabled={col.key === nameCol}
                        onChange={(e) => toggle(col.key, e.currentTarget.checked)}
                      />
                      {col.locked && (
                        <Tooltip label={col.lockMessage} withArrow>
                          <Badge size="xs" variant="light" color={col.lock === 'pro' ? 'orange' : 'violet'} tt="none">
                            {col.lock === 'pro' ? 'Pro' : t('table.growth')}
                          </Badge>
                        </Tooltip>
                      )}
                    </Group>
                  ))}
                </SimpleGrid>
              </Stack>
            ))}
          </Stack>
        </ScrollArea.Autosize>
      )}
      <Stack gap={6}>
        <Tooltip label={limitTip} disabled={canSave} withArrow position="top-start">
          <div style={{ alignSelf: 'flex-start' }}>
            <Checkbox label={t('columns.saveAs')} checked={saving} disabled={!canSave || mustSaveAs} onChange={(e) => setSaveAs(e.currentTarget.checked)} />
          </div>
        </Tooltip>
        {mustSaveAs && (
          <Text size="xs" c="dimmed">
            {canSave ? t('columns.defaultReadOnly') : limitTip}
          </Text>
        )}
        {saving && canSave && (
          <TextInput
            label={t('presets.name')}
            value={name}
            maxLength={50}
            onChange={(e) => {
              setName(e.currentTarget.value);
              setTouched(true);
            }}
            error={touched ? nameProblemText(problem) : null}
            withAsterisk
          />
        )}
      </Stack>
      {error && <Alert color="red">{error}</Alert>}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button onClick={() => void apply()} loading={create.isPending || update.isPending} disabled={(saving && (!canSave || (touched && problem !== null))) || fields.length === 0}>
          {t('columns.apply')}
        </Button>
      </Group>
    </Stack>
  );
}
