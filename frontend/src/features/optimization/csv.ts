/**
 * The CSV of a table view (spec §5 formats): the visible columns' labels, then one line per
 * row with each value as the table shows it (money with the org's currency sign, space
 * thousands and a dot decimal; dates DD/MM/YYYY; statuses and tags by name; a dash when
 * empty). Fields are quoted when they hold a comma, quote or line break; text that a
 * spreadsheet would run as a formula is prefixed with an apostrophe.
 */
import type { ReportRow } from './api/report';
import { columnOf, labelKey } from './columns';
import { formatValue, message } from './format-value';
import type { Level } from './paths';

/** A CSV field: quoted when needed, formulas defused. */
export function csvField(text: string): string {
  const safe = /^[=+@\t\r]/.test(text) || (/^-/.test(text) && !/^-[\d$€£¥.]/.test(text)) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The text of a value of column `field` in the export. */
export function csvValue(level: Level, field: string, value: unknown, currency: string | null): string {
  const column = columnOf(level, field);
  if (column.kind === 'tags') {
    if (!Array.isArray(value)) return '';
    return value.map((tag: unknown) => (typeof tag === 'object' && tag !== null && 'name' in tag && typeof tag.name === 'string' ? tag.name : '')).join(', ');
  }
  if (column.kind === 'status' && typeof value === 'string' && value !== '') {
    if (level === 'ADS' && field === 'adDisplayStatus' && value === 'ACTIVE') return message('status.ENABLED', 'Enabled');
    return message(`status.${value}`, value);
  }
  return formatValue(column, value, currency);
}

/** The CSV text (CRLF lines, as spreadsheets expect) of `rows` in `columns`. */
export function buildCsv(level: Level, columns: string[], rows: ReportRow[], currency: string | null): string {
  const header = columns.map((field) => csvField(message(labelKey(field), field)));
  const lines = rows.map((row) => columns.map((field) => csvField(csvValue(level, field, row[field], currency))).join(','));
  return [header.join(','), ...lines].join('\r\n') + '\r\n';
}

/** The file name of an export: the level and the range. */
export function csvFileName(level: Level, start: string, end: string): string {
  return `searchdeck-${level.toLowerCase()}-${start}_${end}.csv`;
}
