/**
 * A notification in words: its type's label (the left filter list), who made it (a member's
 * name and email, the rule's name, or Apple Ads), its campaign (or 'N campaigns'), and its
 * changes' fields and old → new values — money with its currency as the tables show it,
 * statuses by their names.
 */
import { LOCALE, resources, t, tn } from '@/i18n';
import { EMPTY, formatMoney, formatNumber } from '@/lib/format';
import type { ChangeGroup, Notification } from './api/notifications';

const messages: Record<string, string> = resources[LOCALE];
const messageOr = (key: string, fallback: string) => messages[key] ?? fallback;

/** The label of a tag, or of all of them (`null`). */
export function tagLabel(tag: string | null): string {
  return messageOr(`activity.tag.${tag ?? 'all'}`, tag ?? '');
}

export const APPLE_ADS = 'Apple Ads';

/** Who made it: the name (a member's, a rule's, or Apple Ads) and, for people, the email. */
export function whoOf(n: Notification): { name: string; email: string | null } {
  if (n.source === 'apple_ads') return { name: n.sourceName || APPLE_ADS, email: n.email ?? null };
  if (n.source === 'rule') return { name: n.sourceName || t('activity.who.rule'), email: null };
  return { name: n.sourceName || n.email || t('activity.who.someone'), email: n.sourceName ? (n.email ?? null) : null };
}

/** Who pressed Run now, for a rule's run started by hand (its notification names them). */
export function pressedBy(n: Notification): string | null {
  return n.source === 'rule' && n.email ? n.email : null;
}

/** The campaigns it touched: the names, and the text of the campaign line. */
export function campaignsOf(n: Notification): { names: string[]; text: string } {
  const names = n.campaignNames && n.campaignNames.length > 0 ? n.campaignNames : n.campaignName ? [n.campaignName] : [];
  if (names.length > 1) return { names, text: tn('activity.campaigns', names.length, formatNumber(names.length, 0)) };
  return { names, text: names[0] ?? EMPTY };
}

/** A changed field's label ('Bid', 'Daily budget', 'Status'). */
export function fieldLabel(field: string | null | undefined): string {
  if (!field) return EMPTY;
  return messageOr(`activity.field.${field}`, messageOr(`col.${field}`, field));
}

/** An entity level's label ('Keyword'). */
export function levelLabel(level: string): string {
  return messageOr(`activity.level.${level}`, level);
}

/** An old or new value: money in its currency, a status by name, other text as it is. */
export function valueText(value: string | null | undefined, currency: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return EMPTY;
  if (currency && value.trim() !== '' && Number.isFinite(Number(value))) return formatMoney(value, currency);
  return messageOr(`status.${value}`, value);
}

/** What a group of changes did: "Bid · 2 000 changes". */
export function groupText(group: ChangeGroup): string {
  const what = group.action === 'CREATE' || group.action === 'DELETE' ? t(`activity.action.${group.action}`) : fieldLabel(group.typeOfChange);
  return `${what} · ${tn('activity.changes', group.count, formatNumber(group.count, 0))}`;
}

/**
 * What follows a group's text: for what was created or deleted, the names of what it was
 * (a list's terms: 'free, cheap'; 'and N more' past the names the server sends), never an
 * old → new of a value nobody changed ('— → EXACT'); for an update its old → new.
 */
export function groupDetail(group: ChangeGroup): string | null {
  if (group.action === 'CREATE' || group.action === 'DELETE') {
    const names = group.entities ?? [];
    if (names.length === 0) return null;
    const rest = group.count - names.length;
    return rest > 0 ? `${names.join(', ')} ${t('activity.andMore').replace('{count}', formatNumber(rest, 0))}` : names.join(', ');
  }
  if (group.oldData == null && group.saveData == null) return null;
  return `${valueText(group.oldData, group.currency)} → ${valueText(group.saveData, group.currency)}`;
}
