/**
 * How a report value shows in a cell (docs/product.md#4-statuses-shown statuses,
 * docs/product.md#5-money money and dates): money in the org's currency floored to its digits,
 * ratios as percentages, counts with space thousands, statuses as coloured badges (errors red),
 * tags in their colours, a dash when empty.
 */
import type { CSSProperties } from 'react';
import { EMPTY } from '@/lib/format';
import { statusView, type ColumnDef, type StatusTone } from '../columns';
import { formatValue, message, rulesOf } from '../format-value';
import type { Level } from '../paths';
import { tagStyle } from '../tag-colors';
import css from './cells.module.css';

export { formatValue, message };

/** A light badge's colours of theme colour `color`, built once per colour. */
const lightColors = new Map<string, CSSProperties>();
function light(color: string): CSSProperties {
  let style = lightColors.get(color);
  if (!style) {
    style = { '--badge-bg': `var(--mantine-color-${color}-light)`, '--badge-color': `var(--mantine-color-${color}-light-color)` } as CSSProperties;
    lightColors.set(color, style);
  }
  return style;
}

const TONE_COLOR: Record<StatusTone, string> = { running: 'green', paused: 'gray', error: 'red', neutral: 'blue' };

function humanise(value: string): string {
  const words = value.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function StatusBadge({ level, field, value }: { level: Level; field: string; value: string }) {
  const view = statusView(level, field, value);
  return (
    <span className={css.badge} style={light(TONE_COLOR[view.tone])} data-tone={view.tone}>
      {message(view.key, humanise(value))}
    </span>
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

/** A value's cell: plain elements with the table's classes (see cells.module.css). */
export function Cell({ level, column, value, currency }: { level: Level; column: ColumnDef; value: unknown; currency: string | null }) {
  if (column.kind === 'status' && typeof value === 'string' && value !== '') return <StatusBadge level={level} field={column.field} value={value} />;
  if (column.kind === 'tags') {
    if (!isTagList(value) || value.length === 0) return <>{EMPTY}</>;
    return (
      <span className={css.tags}>
        {value.map((tag) => (
          <span key={tag.id} className={css.badge} style={tagStyle(tag.color)}>
            {tag.name}
          </span>
        ))}
      </span>
    );
  }
  if (column.kind === 'rules') {
    const rules = rulesOf(value);
    if (rules.length === 0) return <>{EMPTY}</>;
    return (
      <span className={css.tags} data-testid="rules-cell">
        {rules.map((rule) => (
          <span
            key={rule.id}
            className={`${css.badge} ${rule.enabled ? '' : css.badgeOutline}`}
            style={light(rule.enabled ? 'indigo' : 'gray')}
            title={rule.enabled ? rule.name : `${rule.name} (${message('cell.rulesDisabled', 'off')})`}
          >
            {rule.name}
          </span>
        ))}
      </span>
    );
  }
  const text = formatValue(column, value, currency);
  if (column.kind === 'id') return <span className={css.id}>{text}</span>;
  return <>{text}</>;
}
