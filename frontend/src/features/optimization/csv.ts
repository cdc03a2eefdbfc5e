/**
 * The CSV of a table view, made for spreadsheets to read without cleaning: the visible
 * columns' labels, then one line per row. Numbers are plain numbers — a dot decimal, no
 * thousands separator, no currency sign — and an empty field where there is no data; money
 * is floored to its currency's digits as the table shows it, and its currency code has a
 * column of its own (after the name column) whenever a money column is exported; ratios are
 * percentages in a column labelled '(%)'. Ids are text (`="772182579262523445"`, which Excel,
 * LibreOffice and Google Sheets keep as typed, where a bare id above 15 digits would be
 * rounded). Statuses and tags are their names; times are ISO 8601. Fields are quoted when
 * they hold a comma, quote or line break; other text that a spreadsheet would run as a
 * formula is prefixed with an apostrophe.
 */
import { csvField, csvId } from '@/lib/csv';
import { floorMoney } from '@/lib/format';
import type { ReportRow } from './api/report';
import { columnOf, labelKey } from './columns';
import { codeText, message } from './format-value';
import type { Level } from './paths';

export { csvField, csvId };

function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** A number as plain text: at most `digits` decimals, no trailing zeros, no exponent. */
function plainNumber(value: number, digits: number): string {
  const text = value.toFixed(digits);
  return digits > 0 ? text.replace(/\.?0+$/, '') || '0' : text;
}

/** The text of a value of column `field` in the export (before quoting). */
export function csvValue(level: Level, field: string, value: unknown, currency: string | null): string {
  const column = columnOf(level, field);
  if (value === null || value === undefined || value === '') return '';
  switch (column.kind) {
    case 'money': {
      const n = numberOf(value);
      return n === null ? '' : plainNumber(floorMoney(n, currency), 6);
    }
    case 'percent': {
      const n = numberOf(value);
      return n === null ? '' : plainNumber(n * 100, 4);
    }
    case 'count':
    case 'decimal': {
      const n = numberOf(value);
      return n === null ? '' : plainNumber(n, column.kind === 'count' ? 0 : 4);
    }
    case 'tags':
      return Array.isArray(value) ? value.map((tag: unknown) => (typeof tag === 'object' && tag !== null && 'name' in tag && typeof tag.name === 'string' ? tag.name : '')).join(', ') : '';
    case 'status':
      if (typeof value !== 'string') return '';
      if (level === 'ADS' && field === 'adDisplayStatus' && value === 'ACTIVE') return message('status.ENABLED', 'Enabled');
      return message(`status.${value}`, value);
    case 'bool':
      return value === true ? message('common.on', 'On') : message('common.off', 'Off');
    case 'code':
      return codeText(field, value);
    case 'list':
      return (Array.isArray(value) ? (value as unknown[]) : [value]).map((v) => (typeof v === 'string' || typeof v === 'number' ? String(v) : JSON.stringify(v))).join(', ');
    case 'id':
      return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
    default:
      return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
  }
}

/** A column's header: its label, marked '(%)' for ratios. */
function header(level: Level, field: string): string {
  const label = message(labelKey(field), field);
  return columnOf(level, field).kind === 'percent' ? `${label} (%)` : label;
}

const CURRENCY = 'currency';

/** The CSV text (CRLF lines, as spreadsheets expect) of `rows` in `columns`. */
export function buildCsv(level: Level, columns: string[], rows: ReportRow[], currency: string | null): string {
  const money = columns.some((field) => columnOf(level, field).kind === 'money');
  // The currency after the name column, unless the level shows it as a column already.
  const fields = money && !columns.includes(CURRENCY) ? [...columns.slice(0, 1), CURRENCY, ...columns.slice(1)] : columns;
  const head = fields.map((field) => csvField(field === CURRENCY ? message('col.currency', 'Currency') : header(level, field)));
  const lines = rows.map((row) => {
    // Account and campaign group rows carry their own currency (accounts may differ).
    const own = typeof row.currency === 'string' ? row.currency : currency;
    return fields
      .map((field) => {
        if (field === CURRENCY) return csvField(own ?? '');
        const text = csvValue(level, field, row[field], own);
        return columnOf(level, field).kind === 'id' ? csvId(text) : csvField(text);
      })
      .join(',');
  });
  return [head.join(','), ...lines].join('\r\n') + '\r\n';
}

/** The file name of an export: the level and the range. */
export function csvFileName(level: Level, start: string, end: string): string {
  return `searchdeck-${level.toLowerCase()}-${start}_${end}.csv`;
}
