import type { EntityChange } from './api/changes';
import { changesCsv, changesFileName } from './csv';

const change = (overrides: Partial<EntityChange> = {}): EntityChange => ({
  level: 'KEYWORD',
  entityId: '772182579262523445',
  entityName: 'running shoes',
  campaignId: '1870001',
  campaignName: 'US — Brand',
  adGroupId: '2870001',
  field: 'cptBid',
  oldValue: '1.20',
  newValue: '1.50',
  currency: 'USD',
  dateCreated: '2026-11-27T10:15:02Z',
  ...overrides,
});

describe('the CSV of a notification’s changes', () => {
  it('writes a header, then one line per change, ids as text and money as plain decimals', () => {
    const csv = changesCsv([change(), change({ entityId: '12', entityName: '=cmd, "quoted"', field: 'status', oldValue: 'ENABLED', newValue: 'PAUSED', currency: null, adGroupId: null })]);
    expect(csv.split('\r\n')).toEqual([
      'Date,Level,Entity,Entity ID,Campaign,Campaign ID,Ad group ID,Field,Old value,New value,Currency',
      '2026-11-27T10:15:02Z,KEYWORD,running shoes,="772182579262523445",US — Brand,="1870001",="2870001",cptBid,1.20,1.50,USD',
      `2026-11-27T10:15:02Z,KEYWORD,"'=cmd, ""quoted""",="12",US — Brand,="1870001",,status,ENABLED,PAUSED,`,
      '',
    ]);
  });

  it('names the file after the notification', () => {
    expect(changesFileName('01JABC')).toBe('searchdeck-activity-01JABC.csv');
  });
});
