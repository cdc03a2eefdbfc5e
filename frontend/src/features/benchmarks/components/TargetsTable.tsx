/**
 * An editable table of targets, one row per country ("All countries" first) and one input per
 * column (the target, or a cohort window): rows are added from the countries Apple Ads serves,
 * emptied cells are cleared, and Save sends only what changed, in one request. Readers see the
 * values read-only.
 */
import { ActionIcon, Alert, Button, Group, Select, Stack, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { fill } from '@/lib/money';
import { showSnackbar } from '@/lib/notifications';
import type { Country } from '../api/get-lists';
import { ALL, cellKey, change, rowsOf } from '../draft';

export interface Column {
  /** The cohort window (revenues), or none (a single target). */
  id?: string;
  title: string;
}

export interface Change {
  country: string | null;
  column?: string;
  value: string | null;
}

interface Props {
  label: string;
  columns: readonly Column[];
  /** The stored values by cell key. */
  stored: ReadonlyMap<string, string>;
  /** Why a value may not be sent, or null. */
  validate: (text: string) => string | null;
  canEdit: boolean;
  countries: readonly Country[];
  onSave: (changes: Change[]) => Promise<unknown>;
}

export function TargetsTable({ label, columns, stored, validate, canEdit, countries, onSave }: Props) {
  const [draft, setDraft] = useState<Record<string, string>>({});
  const [added, setAdded] = useState<string[]>([]);
  const [failure, setFailure] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const rows = rowsOf([...stored.keys()].map((k) => k.split('|')[0] ?? ALL), added);
  const nameOf = (code: string) => (code === ALL ? t('benchmarks.allCountries') : (countries.find((c) => c.code === code)?.name ?? code));
  const changes: Change[] = [];
  for (const country of rows)
    for (const col of columns) {
      const key = cellKey(country, col.id);
      const value = change(stored.get(key), draft[key]);
      if (value !== undefined) changes.push({ country: country === ALL ? null : country, column: col.id, value });
    }
  const invalid = changes.some((c) => c.value !== null && validate(c.value) !== null);
  const set = (key: string, value: string) => setDraft((d) => ({ ...d, [key]: value }));
  const clearRow = (country: string) => {
    setDraft((d) => ({ ...d, ...Object.fromEntries(columns.map((col) => [cellKey(country, col.id), ''])) }));
    setAdded((a) => a.filter((c) => c !== country));
  };
  const save = async () => {
    setSaving(true);
    setFailure(null);
    try {
      await onSave(changes);
      setDraft({});
      setAdded([]);
      showSnackbar(t('benchmarks.saved'));
    } catch (error) {
      setFailure(error);
    } finally {
      setSaving(false);
    }
  };
  const options = countries.filter((c) => !rows.includes(c.code)).map((c) => ({ value: c.code, label: `${c.name} (${c.code})` }));
  return (
    <Stack gap="sm">
      <Table.ScrollContainer minWidth={columns.length > 1 ? 720 : 480}>
        <Table verticalSpacing="xs" aria-label={label} layout="fixed">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={columns.length > 1 ? 150 : 220}>{t('benchmarks.col.country')}</Table.Th>
              {columns.map((col) => (
                <Table.Th key={col.id ?? 'value'}>{col.title}</Table.Th>
              ))}
              {canEdit && <Table.Th w={48} />}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((country) => (
              <Table.Tr key={country || 'all'}>
                <Table.Td>
                  <Text size="sm" fw={country === ALL ? 600 : undefined}>
                    {nameOf(country)}
                  </Text>
                </Table.Td>
                {columns.map((col) => {
                  const key = cellKey(country, col.id);
                  const value = draft[key] ?? stored.get(key) ?? '';
                  const problem = value.trim() === '' ? null : validate(value.trim());
                  return (
                    <Table.Td key={key}>
                      <TextInput
                        size="xs"
                        inputMode="decimal"
                        aria-label={`${col.title}, ${nameOf(country)}`}
                        value={value}
                        readOnly={!canEdit}
                        variant={canEdit ? 'default' : 'filled'}
                        error={problem}
                        onChange={(e) => set(key, e.currentTarget.value)}
                      />
                    </Table.Td>
                  );
                })}
                {canEdit && (
                  <Table.Td>
                    {country !== ALL && (
                      <Tooltip label={fill(t('benchmarks.removeCountry'), { country: nameOf(country) })}>
                        <ActionIcon variant="subtle" color="gray" aria-label={fill(t('benchmarks.removeCountry'), { country: nameOf(country) })} onClick={() => clearRow(country)}>
                          <IconX size={16} />
                        </ActionIcon>
                      </Tooltip>
                    )}
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {failure !== null && (
        <Alert color="red" role="alert" title={t('benchmarks.saveFailed')}>
          {errorMessage(failure)}
        </Alert>
      )}
      {canEdit ? (
        <Group justify="space-between">
          <Select
            size="xs"
            w={280}
            searchable
            aria-label={t('benchmarks.addCountry')}
            placeholder={t('benchmarks.addCountry')}
            data={options}
            value={null}
            onChange={(code) => code && setAdded((a) => [...a, code])}
            nothingFoundMessage={t('select.nothingFound')}
          />
          <Button onClick={() => void save()} loading={saving} disabled={changes.length === 0 || invalid}>
            {t('benchmarks.save')}
          </Button>
        </Group>
      ) : (
        <Text size="sm" c="dimmed">
          {t('benchmarks.readOnly')}
        </Text>
      )}
    </Stack>
  );
}
