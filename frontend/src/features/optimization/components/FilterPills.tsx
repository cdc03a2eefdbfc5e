/** The applied filters as removable pills above the table. */
import { Badge, CloseButton, Group } from '@mantine/core';
import { t, type MessageKey } from '@/i18n';
import { useAllTags } from '../api/tags';
import { labelKey } from '../columns';
import { type Filter } from '../filters';
import { formatNumber } from '@/lib/format';
import { message } from '../format-value';
import type { Level } from '../paths';

function describe(filter: Filter, tagNames: Map<string, string>): string {
  const type = t(`filters.type.${filter.type}` as MessageKey);
  const list = Array.isArray(filter.value) ? filter.value.map(String) : [];
  if (filter.type === 'status') return `${type}: ${list.map((s) => message(`status.${s}`, s)).join(', ')}`;
  if (filter.type === 'tag') return `${type}: ${list.map((id) => tagNames.get(id) ?? id).join(', ')}`;
  if (filter.type === 'country') return `${type}: ${list.join(', ')}`;
  const condition = t(`filters.condition.${filter.condition}` as MessageKey);
  if (filter.type === 'name') return `${type} ${condition} “${String(filter.value)}”`;
  const metric = message(labelKey(filter.metric ?? ''), filter.metric ?? '');
  const value = Array.isArray(filter.value) ? filter.value.map((v) => formatNumber(Number(v))).join(' – ') : formatNumber(Number(filter.value));
  return `${metric} ${condition} ${value}`;
}

export function FilterPills({ level, filters, onChange }: { level: Level; filters: Filter[]; onChange: (f: Filter[]) => void }) {
  const tags = useAllTags();
  const tagNames = new Map((tags.data?.[level] ?? []).map((tag) => [tag._id, tag.name]));
  return (
    <Group gap={6} data-testid="filter-pills">
      {filters.map((filter, index) => (
        <Badge
          key={index}
          variant="light"
          size="lg"
          radius="sm"
          tt="none"
          fw={500}
          pr={4}
          rightSection={
            <CloseButton size="xs" aria-label={`${t('filters.remove')} ${describe(filter, tagNames)}`} onClick={() => onChange(filters.filter((_, i) => i !== index))} />
          }
        >
          {describe(filter, tagNames)}
        </Badge>
      ))}
    </Group>
  );
}
