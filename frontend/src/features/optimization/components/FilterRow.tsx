/**
 * One filter of the filter builder: its condition and value inputs by type (name: a text
 * and contains / does not contain / is; status and tag: any of a list; country: any of some
 * codes; metric: a metric, a comparison and a number or a range). An invalid filter is
 * marked and not applied (docs/product.md#5-filters).
 */
import { ActionIcon, Badge, Group, MultiSelect, NumberInput, Select, TagsInput, Text, TextInput } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { t, type MessageKey } from '@/i18n';
import type { Tag } from '../api/tags';
import { labelKey } from '../columns';
import { FILTER_METRICS, isPercentMetric, isRange, isValidFilter, METRIC_CONDITIONS, STATUSES, TEXT_CONDITIONS, type Condition, type Filter } from '../filters';
import type { Level } from '../paths';
import { message } from '../format-value';

interface Props {
  index: number;
  level: Level;
  filter: Filter;
  tags: Tag[];
  onChange: (filter: Filter) => void;
  onRemove: () => void;
}

const conditionLabel = (c: Condition) => t(`filters.condition.${c}` as MessageKey);

function statusLabel(value: string): string {
  return message(`status.${value}`, value.charAt(0) + value.slice(1).toLowerCase().replace(/_/g, ' '));
}

function num(value: unknown): number | string {
  return typeof value === 'number' || typeof value === 'string' ? value : '';
}

function MetricInputs({ filter, onChange }: { filter: Filter; onChange: (f: Filter) => void }) {
  const suffix = filter.metric && isPercentMetric(filter.metric) ? '%' : undefined;
  const range = isRange(filter.condition);
  const pair = Array.isArray(filter.value) ? filter.value : ['', ''];
  return (
    <>
      <Select
        size="xs"
        w={170}
        aria-label={t('filters.metric')}
        data={FILTER_METRICS.map((m) => ({ value: m, label: message(labelKey(m), m) }))}
        value={filter.metric ?? null}
        searchable
        allowDeselect={false}
        onChange={(metric) => metric && onChange({ ...filter, metric })}
      />
      <Select
        size="xs"
        w={150}
        aria-label={t('filters.condition')}
        data={METRIC_CONDITIONS.map((c) => ({ value: c, label: conditionLabel(c) }))}
        value={filter.condition ?? null}
        allowDeselect={false}
        onChange={(c) => c && onChange({ ...filter, condition: c, value: isRange(c) ? ['', ''] : '' })}
      />
      {range ? (
        <>
          <NumberInput size="xs" w={90} aria-label={t('filters.min')} placeholder={t('filters.min')} min={0} suffix={suffix} value={num(pair[0])} onChange={(v) => onChange({ ...filter, value: [v, pair[1]] as number[] })} />
          <NumberInput size="xs" w={90} aria-label={t('filters.max')} placeholder={t('filters.max')} min={0} suffix={suffix} value={num(pair[1])} onChange={(v) => onChange({ ...filter, value: [pair[0], v] as number[] })} />
        </>
      ) : (
        <NumberInput size="xs" w={120} aria-label={t('filters.value')} min={0} suffix={suffix} value={num(filter.value)} onChange={(v) => onChange({ ...filter, value: v })} />
      )}
    </>
  );
}

export function FilterRow({ index, level, filter, tags, onChange, onRemove }: Props) {
  const valid = isValidFilter(filter);
  const list = Array.isArray(filter.value) ? filter.value.map(String) : [];
  return (
    <Group gap={6} wrap="nowrap" align="center" data-testid="filter-row" data-valid={valid}>
      <Badge variant="light" color={valid ? 'blue' : 'gray'} w={110} tt="none" style={{ flexShrink: 0 }}>
        {t(`filters.type.${filter.type}` as MessageKey)}
      </Badge>
      {filter.type === 'name' && (
        <>
          <Select
            size="xs"
            w={150}
            aria-label={t('filters.condition')}
            data={TEXT_CONDITIONS.map((c) => ({ value: c, label: conditionLabel(c) }))}
            value={filter.condition ?? null}
            allowDeselect={false}
            onChange={(c) => c && onChange({ ...filter, condition: c })}
          />
          <TextInput size="xs" style={{ flex: 1 }} aria-label={t('filters.value')} value={typeof filter.value === 'string' ? filter.value : ''} onChange={(e) => onChange({ ...filter, value: e.currentTarget.value })} />
        </>
      )}
      {filter.type === 'status' && (
        <MultiSelect
          size="xs"
          style={{ flex: 1 }}
          aria-label={t('filters.value')}
          placeholder={t('filters.anyOf')}
          data={(STATUSES[level] ?? []).map((s) => ({ value: s, label: statusLabel(s) }))}
          value={list}
          onChange={(value) => onChange({ ...filter, value })}
        />
      )}
      {filter.type === 'tag' && (
        <MultiSelect
          size="xs"
          style={{ flex: 1 }}
          aria-label={t('filters.value')}
          placeholder={t('filters.anyOf')}
          data={tags.map((tag) => ({ value: tag._id, label: tag.name }))}
          value={list}
          onChange={(value) => onChange({ ...filter, value })}
        />
      )}
      {filter.type === 'country' && (
        <TagsInput
          size="xs"
          style={{ flex: 1 }}
          aria-label={t('filters.value')}
          placeholder={t('filters.countryHint')}
          value={list}
          onChange={(value) => onChange({ ...filter, value: value.map((v) => v.trim().toUpperCase()).filter(Boolean) })}
        />
      )}
      {filter.type === 'metrics' && <MetricInputs filter={filter} onChange={onChange} />}
      {!valid && (
        <Text size="xs" c="orange" style={{ whiteSpace: 'nowrap' }}>
          {t('filters.incomplete')}
        </Text>
      )}
      <ActionIcon variant="subtle" color="gray" aria-label={`${t('filters.remove')} ${index + 1}`} onClick={onRemove}>
        <IconTrash size={14} />
      </ActionIcon>
    </Group>
  );
}
