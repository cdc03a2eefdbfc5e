/**
 * How a report value shows in a cell (spec §4 statuses, §5 money and dates): money in the
 * org's currency floored to its digits, ratios as percentages, counts with space thousands,
 * statuses as coloured badges (errors red), tags in their colours, a dash when empty.
 */
import { Badge, Group, Text } from '@mantine/core';
import { resources, LOCALE } from '@/i18n';
import { EMPTY, formatDateTime, formatMoney, formatNumber, formatPercent } from '@/lib/format';
import { statusView, type ColumnDef, type StatusTone } from '../columns';
import type { Level } from '../paths';

const messages: Record<string, string> = resources[LOCALE];

/** The message of `key`, or `fallback` when there is none (an unknown status). */
export function message(key: string, fallback: string): string {
  return messages[key] ?? fallback;
}

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

function isNumeric(value: unknown): value is number | string {
  return typeof value === 'number' || (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)));
}

/** Any value as text (objects as JSON). */
function plain(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? EMPTY;
}

/** The text of a plain (non-badge) value of column `column`. */
export function formatValue(column: ColumnDef, value: unknown, currency: string | null): string {
  if (value === null || value === undefined || value === '') return EMPTY;
  switch (column.kind) {
    case 'money':
      return isNumeric(value) ? formatMoney(value, currency) : plain(value);
    case 'percent':
      return isNumeric(value) ? formatPercent(value) : plain(value);
    case 'count':
      return isNumeric(value) ? formatNumber(value, 0) : plain(value);
    case 'decimal':
      return isNumeric(value) ? formatNumber(value, 2) : plain(value);
    case 'time':
      return formatDateTime(value as string);
    case 'bool':
      return value === true ? message('common.on', 'On') : message('common.off', 'Off');
    case 'list':
      return Array.isArray(value) ? value.map(plain).join(', ') || EMPTY : plain(value);
    default:
      return plain(value);
  }
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
