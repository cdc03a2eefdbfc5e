import { screen, waitFor, within } from '@testing-library/react';
import { mockApi, ok } from '@/test/fetch-mock';
import { makeAccount, makeTask, makeUser, makeReport } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { VIRTUAL_FROM } from './report-table/virtual';
import { runningSync } from './SyncState';

const account = makeAccount('a1', 'Main', [{ orgId: '42', displayName: 'Cloud Apps' }]);

function report(items: Record<string, unknown>[], lastSyncedAt: string | null) {
  return makeReport(items, { currency: 'EUR', lastSyncedAt: lastSyncedAt, pageSize: items.length || 50 });
}

jest.setTimeout(30_000);

describe('first sync in the header', () => {
  beforeEach(() => window.localStorage.clear());

  it('shows the running sync with its message and progress instead of "Not synced yet"', async () => {
    mockApi('GET /api/account/getAll', ok({ items: [account] }));
    mockApi('POST /api/asa/reports', ok(report([], null)));
    mockApi('GET /api/tasks', ok({ items: [makeTask({ id: 's1', kind: 'sync-reports', accountId: 'a1', message: 'Syncing metrics', step: 1, totalSteps: 3, percent: 25 })] }));
    renderApp('/optimization/a1/42', makeUser());
    const line = await screen.findByText(/Syncing with Apple Ads: Syncing metrics/);
    expect(line).toHaveTextContent('25%');
    expect(screen.getByTestId('report-last-synced')).toHaveAttribute('data-syncing');
  });

  it("shows a later sync's progress (Sync now) in place of the last sync, then the last and next sync (issue 42 item 21)", async () => {
    const synced = makeAccount('a1', 'Main', [{ orgId: '42', displayName: 'Cloud Apps' }], { lastSyncedAt: '2026-11-19T10:00:00Z', nextSyncAt: '2026-11-19T12:00:00Z' });
    mockApi('GET /api/account/getAll', ok({ items: [synced] }));
    mockApi('POST /api/asa/reports', ok(report([], '2026-11-19T10:00:00Z')));
    mockApi('GET /api/tasks', ok({ items: [makeTask({ id: 's2', kind: 'sync-account', accountId: 'a1', message: 'Syncing campaigns', step: 1, totalSteps: 3, percent: 25 })] }));
    renderApp('/optimization/a1/42', makeUser());
    const line = await screen.findByText(/Syncing with Apple Ads: Syncing campaigns/);
    expect(line).toHaveTextContent('25%');
  });

  it('says when a synced account last synced and next syncs when no sync runs', async () => {
    const synced = makeAccount('a1', 'Main', [{ orgId: '42', displayName: 'Cloud Apps' }], { lastSyncedAt: '2026-11-19T10:00:00Z', nextSyncAt: '2026-11-19T12:00:00Z' });
    mockApi('GET /api/account/getAll', ok({ items: [synced] }));
    mockApi('POST /api/asa/reports', ok(report([], '2026-11-19T10:00:00Z')));
    mockApi('GET /api/tasks', ok({ items: [] }));
    renderApp('/optimization/a1/42', makeUser());
    await waitFor(() => expect(screen.getByTestId('report-last-synced')).toHaveTextContent(/^Last synced 19\/11\/2026 \d\d:00 · Next sync 19\/11\/2026 \d\d:00$/));
  });

  it('says "Not synced yet" when no sync runs', async () => {
    mockApi('GET /api/account/getAll', ok({ items: [account] }));
    mockApi('POST /api/asa/reports', ok(report([], null)));
    mockApi('GET /api/tasks', ok({ items: [makeTask({ kind: 'sync-account', finish: true })] }));
    renderApp('/optimization/a1/42', makeUser());
    expect(await screen.findByTestId('report-last-synced')).toHaveTextContent('Not synced yet');
  });

  it("says \"Not synced yet\" while only another account's sync runs", async () => {
    mockApi('GET /api/account/getAll', ok({ items: [account] }));
    mockApi('POST /api/asa/reports', ok(report([], null)));
    mockApi('GET /api/tasks', ok({ items: [makeTask({ kind: 'sync-account', accountId: 'other', message: 'Syncing account' })] }));
    renderApp('/optimization/a1/42', makeUser());
    expect(await screen.findByTestId('report-last-synced')).toHaveTextContent('Not synced yet');
  });

  it("picks only the running sync tasks of the page's connection and campaign group", () => {
    expect(runningSync([makeTask({ kind: 'bulk-edit', accountId: 'a1' }), makeTask({ id: '2', kind: 'sync-account', accountId: 'a1', error: 'gone' })], 'a1', '42')).toBeNull();
    expect(runningSync([makeTask({ id: '3', kind: 'sync-account', accountId: 'a1' })], 'a1', '42')?.id).toBe('3');
    expect(runningSync([makeTask({ id: '4', kind: 'sync-account', accountId: 'a2' })], 'a1', '42')).toBeNull();
    // A task of no connection (recorded before tasks named theirs) is no one account's.
    expect(runningSync([makeTask({ id: '5', kind: 'sync-account' })], 'a1', '42')).toBeNull();
    expect(runningSync([makeTask({ id: '6', kind: 'sync-reports', accountId: 'a1', orgId: '7' })], 'a1', '42')).toBeNull();
    expect(runningSync([makeTask({ id: '7', kind: 'sync-reports', accountId: 'a1', orgId: '42' })], 'a1', '42')?.id).toBe('7');
    expect(runningSync([makeTask({ id: '8', kind: 'sync-reports', accountId: 'a1', orgId: '7' })], 'a1', null)?.id).toBe('8');
  });
});

describe('long pages', () => {
  // jsdom lays nothing out: the table's scroll box gets the height of a screen, rows 41 px.
  const sizes: [string, (el: HTMLElement) => number][] = [
    ['clientHeight', (el) => (el.dataset.testid === 'report-table' ? 600 : 0)],
    ['clientWidth', (el) => (el.dataset.testid === 'report-table' ? 1200 : 0)],
    ['offsetHeight', (el) => (el.tagName === 'TR' ? 41 : 0)],
  ];
  beforeEach(() => {
    window.localStorage.clear();
    for (const [prop, size] of sizes) {
      Object.defineProperty(HTMLElement.prototype, prop, { configurable: true, get(this: HTMLElement) { return size(this); } });
    }
  });
  afterEach(() => {
    for (const [prop] of sizes) delete (HTMLElement.prototype as unknown as Record<string, unknown>)[prop];
  });

  it('renders only the rows in view of a 1,000-row page, with spacers for the rest', async () => {
    const items = Array.from({ length: 1000 }, (_, i) => ({ keywordId: String(i + 1), keyword: `kw ${i + 1}`, keywordStatus: 'ACTIVE', campaignId: '7', adGroupId: '9', cptBid: 1, localSpend: i }));
    mockApi('GET /api/account/getAll', ok({ items: [account] }));
    mockApi('POST /api/asa/reports', ok(report(items, '2026-11-19T10:00:00Z')));
    renderApp('/optimization/a1/42/campaign-id-7/keywords?size=1000', makeUser());
    const table = await screen.findByTestId('report-table');
    await within(table).findByText('kw 1');
    expect(table).toHaveAttribute('data-virtual', 'true');
    const rendered = table.querySelectorAll('tbody tr:not([data-spacer])').length;
    expect(rendered).toBeGreaterThan(0);
    expect(rendered).toBeLessThan(VIRTUAL_FROM);
    expect(within(table).queryByText('kw 1000')).not.toBeInTheDocument();
    expect(screen.getByTestId('row-range')).toHaveTextContent('1–1 000 of 1 000 rows');
  });

  it('renders a short page whole', async () => {
    const items = Array.from({ length: 20 }, (_, i) => ({ keywordId: String(i + 1), keyword: `kw ${i + 1}`, keywordStatus: 'ACTIVE', campaignId: '7', adGroupId: '9' }));
    mockApi('GET /api/account/getAll', ok({ items: [account] }));
    mockApi('POST /api/asa/reports', ok(report(items, '2026-11-19T10:00:00Z')));
    renderApp('/optimization/a1/42/campaign-id-7/keywords', makeUser());
    const table = await screen.findByTestId('report-table');
    await within(table).findByText('kw 20');
    expect(table).not.toHaveAttribute('data-virtual');
  });
});
