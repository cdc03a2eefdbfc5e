/**
 * The text of a report value (spec §5): money in the org's currency floored to its digits,
 * ratios as percentages, counts with space thousands, dates DD/MM/YYYY, a dash when empty.
 * Shared by the table's cells, the chart's axes and the CSV export.
 */
import { LOCALE, resources } from '@/i18n';
import { EMPTY, formatDateTime, formatMoney, formatNumber, formatPercent } from '@/lib/format';
import type { ColumnDef } from './columns';

const messages: Record<string, string> = resources[LOCALE];

/** The message of `key`, or `fallback` when there is none (an unknown status). */
export function message(key: string, fallback: string): string {
  return messages[key] ?? fallback;
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

