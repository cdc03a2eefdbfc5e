/**
 * How a report value shows in a cell (spec §4 statuses, §5 money and dates): money in the
 * org's currency floored to its digits, ratios as percentages, counts with space thousands,
 * statuses as coloured badges (errors red), tags in their colours, a dash when empty.
 */
import { Badge, Group, Text } from '@mantine/core';
import { EMPTY } from '@/lib/format';
import { statusView, type ColumnDef, type StatusTone } from '../columns';
import { formatValue, message } from '../format-value';
import type { Level } from '../paths';

export { formatValue, message };

const TONE_COLOR: Record<StatusTone, string> = { running: 'green', paused: 'gray', error: 'red', neutral: 'blue' };

/** Tag colours of spec §2 (Green … Red) as theme colours. */
const TAG_COLOR: Record<string, string> = {
  green: 'green',
  purple: 'violet',
  yellow: 'yellow',
  orange: 'orange',
  pink: 'pink',
  indigo: 'indigo',
  magenta: 'grape',
  cyan: 'cyan',
  blue: 'blue',
  red: 'red',
};

function humanise(value: string): string {
  const words = value.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function StatusBadge({ level, field, value }: { level: Level; field: string; value: string }) {
  const view = statusView(level, field, value);
  return (
    <Badge variant="light" color={TONE_COLOR[view.tone]} radius="sm" tt="none" data-tone={view.tone}>
      {message(view.key, humanise(value))}
    </Badge>
  );
}

interface TagRef {
  id: string;
  name: string;
  color: string;
}

function isTagList(value: unknown): value is TagRef[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'object' && v !== null && 'name' in v);
}

export function Cell({ level, column, value, currency }: { level: Level; column: ColumnDef; value: unknown; currency: string | null }) {
  if (column.kind === 'status' && typeof value === 'string' && value !== '') return <StatusBadge level={level} field={column.field} value={value} />;
  if (column.kind === 'tags') {
    if (!isTagList(value) || value.length === 0) return <>{EMPTY}</>;
    return (
      <Group gap={4} wrap="nowrap">
        {value.map((tag) => (
          <Badge key={tag.id} variant="light" radius="sm" tt="none" color={TAG_COLOR[tag.color.toLowerCase()] ?? 'gray'}>
            {tag.name}
          </Badge>
        ))}
      </Group>
    );
  }
  const text = formatValue(column, value, currency);
  if (column.kind === 'id') {
    return (
      <Text span size="sm" ff="monospace" c="dimmed">
        {text}
      </Text>
    );
  }
  return <>{text}</>;
}
