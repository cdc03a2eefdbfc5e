/**
 * The text of a report value (docs/product.md#5-money): money in the org's currency floored to its
 * digits, ratios as percentages, counts with space thousands, dates DD/MM/YYYY, a dash when empty.
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

interface RuleRef {
  id: string;
  name: string;
  enabled: boolean;
}

/** The rules of a campaign as the report answers them (`[{id, name, enabled}]`). */
export function rulesOf(value: unknown): RuleRef[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((v) => {
    if (typeof v !== 'object' || v === null) return [];
    const r = v as Record<string, unknown>;
    return typeof r.name === 'string' ? [{ id: typeof r.id === 'string' || typeof r.id === 'number' ? String(r.id) : r.name, name: r.name, enabled: r.enabled !== false }] : [];
  });
}

/**
 * A campaign's goal optimisation as words ("CPA goal $2.50", "ROAS D7 goal 120 %"): the
 * report answers its type, target and a ROAS goal's cohort day (an object, or a list of
 * them), null when off or Growth-locked.
 */
export function optimizationText(value: unknown, currency: string | null): string {
  const list: unknown[] = Array.isArray(value) ? value : [value];
  const parts = list.flatMap((v) => {
    if (typeof v === 'string' && v !== '') return [message(`cell.optimization.${v}`, v).replace(' {target}', '')];
    if (typeof v !== 'object' || v === null) return [];
    const o = v as Record<string, unknown>;
    const type = typeof o.type === 'string' ? o.type : null;
    if (!type) return [];
    const raw = typeof o.target === 'string' || typeof o.target === 'number' ? String(o.target) : null;
    // A ROAS goal's target is a percentage of the spend, judged on a cohort (`cohortDay`).
    const percent = type === 'ROAS_GOAL';
    const target = raw === null ? '' : percent ? `${raw} %` : formatMoney(raw, currency);
    const day = typeof o.cohortDay === 'number' ? String(o.cohortDay) : '';
    return [message(`cell.optimization.${type}`, `${type} {target}`).replace('{day}', day).replace('{target}', target).trim()];
  });
  return parts.join(', ') || EMPTY;
}

/**
 * A coded value (a negative keyword's level, a match type, a search term's source) in the
 * user's words: `code.<field>.<value>`, else the code as a phrase ('AD_GROUP' → 'Ad group').
 */
export function codeText(field: string, value: unknown): string {
  const code = plain(value);
  const phrase = code.charAt(0) + code.slice(1).toLowerCase().replace(/_/g, ' ');
  return message(`code.${field}.${code}`, phrase);
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
    case 'rules':
      return rulesOf(value).map((r) => (r.enabled ? r.name : `${r.name} (${message('cell.rulesDisabled', 'off')})`)).join(', ') || EMPTY;
    case 'optimization':
      return optimizationText(value, currency);
    case 'list':
      return Array.isArray(value) ? value.map(plain).join(', ') || EMPTY : plain(value);
    case 'code':
      return codeText(column.field, value);
    default:
      return plain(value);
  }
}

