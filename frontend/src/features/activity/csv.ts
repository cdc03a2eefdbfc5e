/**
 * The CSV export of a notification's changes (the detail drawer): every change, entity by
 * entity, for a spreadsheet to read without cleaning — values as the server stores them
 * (money a plain decimal with its currency code beside it, statuses by name), ids as text,
 * times in ISO 8601.
 */
import { csvField, csvId, csvLines } from '@/lib/csv';
import type { EntityChange } from './api/changes';

const HEADER = ['Date', 'Level', 'Entity', 'Entity ID', 'Campaign', 'Campaign ID', 'Ad group ID', 'Field', 'Old value', 'New value', 'Currency'];

export function changesCsv(items: readonly EntityChange[]): string {
  const rows = items.map((c) => [
    csvField(c.dateCreated),
    csvField(c.level),
    csvField(c.entityName ?? ''),
    csvId(c.entityId),
    csvField(c.campaignName ?? ''),
    c.campaignId ? csvId(c.campaignId) : '',
    c.adGroupId ? csvId(c.adGroupId) : '',
    csvField(c.field),
    csvField(c.oldValue ?? ''),
    csvField(c.newValue ?? ''),
    csvField(c.currency ?? ''),
  ]);
  return csvLines([HEADER, ...rows]);
}

export const changesFileName = (notificationId: string) => `searchdeck-activity-${notificationId}.csv`;
