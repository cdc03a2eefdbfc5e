import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { callsTo, fail, mockApi, ok } from '@/test/fetch-mock';
import { makeAccount, makeTask, makeUser, makeReport } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { bulkEditBody, bulkEditPath, negativeCalls } from '../api/bulk-edit';
import { patchOf, quickEditCall } from '../api/quick-edit';
import { amountText } from './QuickEdit';
import { bulkRequest } from './BulkEditBar';

const account = makeAccount('a1', 'Main', [{ orgId: '42', displayName: 'Cloud Apps' }]);
const KEYWORDS = '/optimization/a1/42/campaign-id-7/ad-group-id-9/keywords';

function keyword(id: string, name: string, bid: number, status = 'ACTIVE') {
  return { keywordId: id, keyword: name, keywordStatus: status, campaignId: '7', adGroupId: '9', cptBid: bid, deleted: false, tag: [], localSpend: 1 };
}

function keywordsReport(items = [keyword('11', 'fitness app', 1.5), keyword('12', 'workout', 0.8, 'PAUSED')]) {
  return makeReport(items, { currency: 'USD', lastSyncedAt: '2026-11-19T10:00:00Z' });
}

function edited(values: Record<string, unknown>) {
  return { item: { level: 'KEYWORD', id: '11', campaignId: '7', adGroupId: '9', orgId: '42', accountId: 'a1', currency: 'USD', values, changes: [] } };
}

/** Quick edits sent so far (the report answers the edited rows after the first). */
const edits = () => callsTo('PUT /api/asa/keywords/update/7/9').length;

jest.setTimeout(20_000);

describe('quick edits', () => {
  beforeEach(() => {
    window.localStorage.clear();
    mockApi('GET /api/account/getAll', ok({ items: [account] }));
  });

  it('saves a bid on Enter, sends it in the currency digits, and shows the answer at once', async () => {
    const after = keywordsReport([keyword('11', 'fitness app', 2.25), keyword('12', 'workout', 0.8, 'PAUSED')]);
    mockApi('POST /api/asa/reports', () => (edits() ? ok(after) : ok(keywordsReport())));
    mockApi('PUT /api/asa/keywords/update/7/9', ok(edited({ cptBid: { amount: '2.25', currency: 'USD' }, status: 'ENABLED' })));
    renderApp(KEYWORDS, makeUser());
    const table = await screen.findByTestId('report-table');
    await userEvent.click(await within(table).findByRole('button', { name: 'Edit Bid: fitness app' }));
    const input = within(table).getByRole('textbox', { name: 'Bid: fitness app' });
    await userEvent.clear(input);
    await userEvent.type(input, '2.257{Enter}');
    await waitFor(() => expect(callsTo('PUT /api/asa/keywords/update/7/9')).toHaveLength(1));
    const call = callsTo('PUT /api/asa/keywords/update/7/9')[0]!;
    expect(call.url).toContain('accountId=a1');
    expect(call.url).toContain('orgId=42');
    // The input keeps the currency's two digits: 2.257 is typed as 2.25.
    expect(call.body).toEqual({ keywordId: '11', cptBid: '2.25' });
    expect(await within(table).findByRole('button', { name: 'Edit Bid: fitness app' })).toHaveTextContent('$2.25');
  });

  it('shows the refusal on the cell and keeps the old value; Escape cancels', async () => {
    mockApi('POST /api/asa/reports', ok(keywordsReport()));
    // Apple's own words name the wire field; the cell says it in the user's.
    mockApi('PUT /api/asa/keywords/update/7/9', fail(400, 'Invalid', [{ field: 'cptBid', message: 'bid must be at least 0.60 USD' }]));
    renderApp(KEYWORDS, makeUser());
    const table = await screen.findByTestId('report-table');
    await userEvent.click(await within(table).findByRole('button', { name: 'Edit Bid: fitness app' }));
    const input = within(table).getByRole('textbox', { name: 'Bid: fitness app' });
    await userEvent.clear(input);
    await userEvent.type(input, '0.5{Enter}');
    expect(await within(table).findByText('Bid must be at least $0.60')).toBeInTheDocument();
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(await within(table).findByRole('button', { name: 'Edit Bid: fitness app' })).toHaveTextContent('$1.50');
  });

  it.each([
    ['-1', 'Bid cannot be negative'],
    ['0', 'Bid must be more than 0'],
    ['0.05', 'Bid must be at least $0.10'],
  ])('refuses %s in the cell with a message, sends nothing and keeps the sign', async (typed, text) => {
    mockApi('POST /api/asa/reports', ok(keywordsReport()));
    mockApi('PUT /api/asa/keywords/update/7/9', ok(edited({ cptBid: { amount: '1', currency: 'USD' } })));
    renderApp(KEYWORDS, makeUser());
    const table = await screen.findByTestId('report-table');
    await userEvent.click(await within(table).findByRole('button', { name: 'Edit Bid: fitness app' }));
    const input = within(table).getByRole('textbox', { name: 'Bid: fitness app' });
    await userEvent.clear(input);
    await userEvent.type(input, `${typed}{Enter}`);
    expect(await within(table).findByRole('alert')).toHaveTextContent(text);
    expect(input).toHaveValue(`$${typed}`.replace('$-', '-$'));
    expect(edits()).toBe(0);
  });

  it("puts Apple's refusal of an amount in the user's words", async () => {
    mockApi('POST /api/asa/reports', ok(keywordsReport()));
    mockApi('PUT /api/asa/keywords/update/7/9', fail(400, 'Invalid', [{ field: 'cptBid', message: 'bid: amount must be a positive decimal, got "0.10"' }]));
    renderApp(KEYWORDS, makeUser());
    const table = await screen.findByTestId('report-table');
    await userEvent.click(await within(table).findByRole('button', { name: 'Edit Bid: fitness app' }));
    const input = within(table).getByRole('textbox', { name: 'Bid: fitness app' });
    await userEvent.clear(input);
    await userEvent.type(input, '0.10{Enter}');
    expect(await within(table).findByRole('alert')).toHaveTextContent('Bid must be more than 0');
    expect(within(table).queryByText(/positive decimal/)).toBeNull();
  });

  it('pauses a keyword from its status switch', async () => {
    const after = keywordsReport([keyword('11', 'fitness app', 1.5, 'PAUSED'), keyword('12', 'workout', 0.8, 'PAUSED')]);
    mockApi('POST /api/asa/reports', () => (edits() ? ok(after) : ok(keywordsReport())));
    mockApi('PUT /api/asa/keywords/update/7/9', ok(edited({ cptBid: { amount: '1.5', currency: 'USD' }, status: 'PAUSED' })));
    renderApp(KEYWORDS, makeUser());
    const table = await screen.findByTestId('report-table');
    const toggle = await within(table).findByRole('switch', { name: 'Pause fitness app' });
    expect(toggle).toBeChecked();
    await userEvent.click(toggle);
    await waitFor(() => expect(callsTo('PUT /api/asa/keywords/update/7/9')[0]?.body).toEqual({ keywordId: '11', status: 'PAUSED' }));
    expect(await within(table).findByRole('switch', { name: 'Enable fitness app' })).not.toBeChecked();
  });

  it('gives readers disabled controls and sends nothing', async () => {
    mockApi('POST /api/asa/reports', ok(keywordsReport()));
    renderApp(KEYWORDS, makeUser({ permission: 'reader' }));
    const table = await screen.findByTestId('report-table');
    expect(await within(table).findByRole('button', { name: 'Edit Bid: fitness app' })).toBeDisabled();
    expect(within(table).getByRole('switch', { name: 'Pause fitness app' })).toBeDisabled();
    await userEvent.click(within(table).getAllByRole('checkbox', { name: /^Select / })[1]!);
    const bar = await screen.findByTestId('bulk-edit-bar');
    expect(within(bar).getByRole('button', { name: 'Pause' })).toBeDisabled();
    expect(callsTo('PUT /api/asa/keywords/update/7/9')).toHaveLength(0);
  });
});

describe('bulk edits', () => {
  beforeEach(() => {
    window.localStorage.clear();
    mockApi('GET /api/account/getAll', ok({ items: [account] }));
  });

  it('pauses the selected keywords, follows the task and lists the refused ones', async () => {
    mockApi('POST /api/asa/reports', ok(keywordsReport()));
    mockApi('PUT /api/asa/keywords/update/targeting/7', ok({ item: { taskId: 't9', level: 'KEYWORD', field: 'status', operation: 'Pause', total: 2 } }));
    const details = {
      level: 'KEYWORD',
      field: 'status',
      operation: 'Pause',
      total: 2,
      done: 2,
      applied: 1,
      refused: 1,
      skipped: 0,
      items: [],
      errors: [{ id: '12', result: 'refused', oldValue: 'ACTIVE', newValue: 'PAUSED', message: 'Keyword is locked by a rule' }],
    };
    mockApi('GET /api/tasks/t9', ok({ item: makeTask({ id: 't9', kind: 'bulk-edit', message: 'Bulk edit', finish: true, step: 2, totalSteps: 2, percent: 100, details }) }));
    renderApp(KEYWORDS, makeUser());
    const table = await screen.findByTestId('report-table');
    await userEvent.click(await within(table).findByRole('checkbox', { name: 'Select all rows on this page' }));
    const bar = await screen.findByTestId('bulk-edit-bar');
    await userEvent.click(within(bar).getByRole('button', { name: 'Pause' }));
    await waitFor(() => expect(callsTo('PUT /api/asa/keywords/update/targeting/7')).toHaveLength(1));
    expect(callsTo('PUT /api/asa/keywords/update/targeting/7')[0]!.body).toEqual({ ids: ['11', '12'], field: 'status', action: 'pause' });
    const refused = await within(bar).findByTestId('bulk-refused');
    expect(refused).toHaveTextContent('workout: Keyword is locked by a rule');
    expect(within(bar).getByTestId('bulk-counts')).toHaveTextContent('1 applied');
  });

  it('raises bids by a percentage with a cap', async () => {
    mockApi('POST /api/asa/reports', ok(keywordsReport()));
    mockApi('PUT /api/asa/keywords/update/targeting/7', ok({ item: { taskId: 't10', level: 'KEYWORD', field: 'cptBid', operation: 'Raise by 10 %', total: 1 } }));
    mockApi('GET /api/tasks/t10', ok({ item: makeTask({ id: 't10', kind: 'bulk-edit' }) }));
    renderApp(KEYWORDS, makeUser());
    const table = await screen.findByTestId('report-table');
    await userEvent.click((await within(table).findAllByRole('checkbox', { name: /^Select fitness/ }))[0]!);
    const bar = await screen.findByTestId('bulk-edit-bar');
    await userEvent.click(within(bar).getByText('Raise by'));
    await userEvent.click(within(bar).getByText('%'));
    await userEvent.type(within(bar).getByRole('textbox', { name: 'Percent' }), '10');
    await userEvent.type(within(bar).getByRole('textbox', { name: 'Cap (optional)' }), '3');
    await userEvent.click(within(bar).getByRole('button', { name: 'Apply to selected' }));
    await waitFor(() => expect(callsTo('PUT /api/asa/keywords/update/targeting/7')).toHaveLength(1));
    expect(callsTo('PUT /api/asa/keywords/update/targeting/7')[0]!.body).toEqual({ ids: ['11'], field: 'cptBid', action: 'raise', percent: 10, cap: '3.00' });
  });
});

describe('negatives from the bulk-edit header', () => {
  beforeEach(() => {
    window.localStorage.clear();
    mockApi('GET /api/account/getAll', ok({ items: [account] }));
  });

  it('adds the selected keywords as broad ad-group negatives, follows the task and lists the refused ones', async () => {
    mockApi('POST /api/asa/reports', ok(keywordsReport()));
    mockApi('PUT /api/asa/keywords/add/negative/7', ok({ item: { taskId: 't11', level: 'NEGATIVE_KEYWORD', field: 'created', operation: 'Add 2 negative keywords (broad)', total: 2 } }));
    const details = {
      level: 'NEGATIVE_KEYWORD',
      field: 'created',
      operation: 'Add 2 negative keywords (broad)',
      total: 2,
      done: 2,
      applied: 1,
      refused: 1,
      skipped: 0,
      items: [],
      errors: [{ id: '0', text: 'workout', result: 'refused', message: 'Negative keyword limit reached' }],
    };
    mockApi('GET /api/tasks/t11', ok({ item: makeTask({ id: 't11', kind: 'bulk-edit', message: 'Bulk edit', finish: true, step: 2, totalSteps: 2, percent: 100, details }) }));
    renderApp(KEYWORDS, makeUser());
    const table = await screen.findByTestId('report-table');
    await userEvent.click(await within(table).findByRole('checkbox', { name: 'Select all rows on this page' }));
    const bar = await screen.findByTestId('bulk-edit-bar');
    await userEvent.click(within(bar).getByRole('button', { name: 'Add as negatives' }));
    const form = await screen.findByTestId('negatives-form');
    expect(within(form).getByTestId('negatives-count')).toHaveTextContent('2 keywords to add');
    await userEvent.click(within(form).getByText('Ad group'));
    await userEvent.click(within(form).getByText('Broad'));
    await userEvent.click(within(form).getByRole('button', { name: 'Add negatives' }));
    await waitFor(() => expect(callsTo('PUT /api/asa/keywords/add/negative/7')).toHaveLength(1));
    const call = callsTo('PUT /api/asa/keywords/add/negative/7')[0]!;
    expect(call.body).toEqual({ texts: ['fitness app', 'workout'], matchType: 'BROAD', adGroupIds: ['9'] });
    expect(call.url).toContain('accountId=a1');
    expect(await within(bar).findByTestId('bulk-task')).toHaveTextContent('Add 2 negative keywords (broad)');
    expect(within(bar).getByTestId('bulk-counts')).toHaveTextContent('1 refused');
    expect(within(bar).getByTestId('bulk-refused')).toHaveTextContent('workout: Negative keyword limit reached');
  });

  it('adds a search term whose id is past 2^53 (the id stays exact from the JSON text on)', async () => {
    // The server's text, as it sends it: a search-term id of 63 bits, as a string.
    const raw = `{"status":200,"message":"OK","result":{"items":[{"searchTermId":"772182579262523445","searchTermText":"cloud backup","searchTermStatus":"ACTIVE","campaignId":"7","adGroupId":"9","deleted":false,"tag":[],"impressions":10,"taps":1}],"total":1,"totals":{},"currency":"USD","lastSyncedAt":"2026-11-19T10:00:00Z","locked":[],"lockedGroups":[],"hidden":[],"syncing":false,"page":1,"pageSize":50}}`;
    mockApi('POST /api/asa/reports', { raw });
    mockApi('PUT /api/asa/keywords/add/negative/7', ok({ item: { taskId: 't12', level: 'NEGATIVE_KEYWORD', field: 'created', operation: 'Add 1 negative keyword (exact)', total: 1 } }));
    mockApi('GET /api/tasks/t12', ok({ item: makeTask({ id: 't12', kind: 'bulk-edit', message: 'Bulk edit', finish: false, step: 0, totalSteps: 1, percent: 0, details: {} }) }));
    renderApp('/optimization/a1/42/campaign-id-7/ad-group-id-9/searchterms', makeUser());
    const table = await screen.findByTestId('report-table');
    await userEvent.click(await within(table).findByRole('checkbox', { name: 'Select all rows on this page' }));
    const bar = await screen.findByTestId('bulk-edit-bar');
    await userEvent.click(within(bar).getByRole('button', { name: 'Add as negatives' }));
    const form = await screen.findByTestId('negatives-form');
    expect(within(form).getByTestId('negatives-count')).toHaveTextContent('1 keyword to add');
    expect(within(form).getByTestId('negatives-count')).not.toHaveTextContent('not on this page');
    await userEvent.click(within(form).getByRole('button', { name: 'Add negatives' }));
    await waitFor(() => expect(callsTo('PUT /api/asa/keywords/add/negative/7')).toHaveLength(1));
    expect(callsTo('PUT /api/asa/keywords/add/negative/7')[0]!.body).toMatchObject({ texts: ['cloud backup'] });
  });

  it('keeps the button disabled for readers', async () => {
    mockApi('POST /api/asa/reports', ok(keywordsReport()));
    renderApp(KEYWORDS, makeUser({ permission: 'reader' }));
    const table = await screen.findByTestId('report-table');
    await userEvent.click((await within(table).findAllByRole('checkbox', { name: /^Select fitness/ }))[0]!);
    const bar = await screen.findByTestId('bulk-edit-bar');
    expect(within(bar).getByRole('button', { name: 'Add as negatives' })).toBeDisabled();
  });

  it('sends campaign-level texts once per campaign set, ad-group ones per ad group', () => {
    const base = { accountId: 'a1', orgId: '42', matchType: 'EXACT' as const };
    const items = [
      { text: 'a', campaignId: '7', adGroupId: '9' },
      { text: 'b', campaignId: '7', adGroupId: '10' },
      { text: 'a', campaignId: '7', adGroupId: '10' },
      { text: 'c', campaignId: '7', adGroupId: null },
    ];
    expect(negativeCalls({ ...base, items, level: 'campaign' })).toEqual([
      { path: '/asa/keywords/add/negative/7?accountId=a1&orgId=42', body: { texts: ['a', 'b', 'c'], matchType: 'EXACT' } },
    ]);
    expect(negativeCalls({ ...base, items, level: 'adGroup' })).toEqual([
      { path: '/asa/keywords/add/negative/7?accountId=a1&orgId=42', body: { texts: ['a'], matchType: 'EXACT', adGroupIds: ['9'] } },
      { path: '/asa/keywords/add/negative/7?accountId=a1&orgId=42', body: { texts: ['b', 'a'], matchType: 'EXACT', adGroupIds: ['10'] } },
    ]);
    expect(negativeCalls({ ...base, items: [...items, { text: 'd', campaignId: '8', adGroupId: '1' }], level: 'campaign' })).toEqual([
      { path: '/asa/keywords/add/negative?accountId=a1&orgId=42', body: { texts: ['a', 'b', 'c', 'd'], matchType: 'EXACT', campaignIds: ['7', '8'] } },
    ]);
    expect(negativeCalls({ ...base, items: [], level: 'campaign' })).toEqual([]);
  });
});

describe('edit requests', () => {
  const scope = { accountId: 'a1', orgId: '42', campaignId: null, adGroupId: null };
  it('builds each level route and body', () => {
    expect(quickEditCall({ scope: { ...scope, level: 'CAMPAIGNS' }, row: { campaignId: '7' }, change: { field: 'dailyBudget', amount: '50.00' } })).toEqual({
      path: '/asa/campaigns/update/7?accountId=a1&orgId=42',
      body: { dailyBudgetAmount: '50.00' },
    });
    expect(quickEditCall({ scope: { ...scope, level: 'GROUPS' }, row: { campaignId: '7', adGroupId: '9' }, change: { field: 'cpaGoal', amount: '3.10' } })).toEqual({
      path: '/asa/groups/updatesV2/7?accountId=a1&orgId=42',
      body: { adGroupId: '9', cpaGoal: '3.10' },
    });
    expect(quickEditCall({ scope: { ...scope, level: 'KEYWORDS' }, row: { campaignId: '7', adGroupId: '9', keywordId: '11' }, change: { field: 'status', status: 'PAUSED' } })).toEqual({
      path: '/asa/keywords/update/7/9?accountId=a1&orgId=42',
      body: { keywordId: '11', status: 'PAUSED' },
    });
    expect(quickEditCall({ scope: { ...scope, level: 'KEYWORDS' }, row: { campaignId: '7', keywordId: '11' }, change: { field: 'status', status: 'PAUSED' } })).toBeNull();
    // Rows without their campaign and ad group take the page's.
    expect(quickEditCall({ scope: { ...scope, level: 'KEYWORDS', campaignId: '7', adGroupId: '9' }, row: { keywordId: '11' }, change: { field: 'cptBid', amount: '1.00' } })?.path).toBe(
      '/asa/keywords/update/7/9?accountId=a1&orgId=42',
    );
  });

  it('reads the answer back into row fields (keywords show ACTIVE)', () => {
    const answer = { level: 'KEYWORD', id: '11', accountId: 'a1', orgId: '42', campaignId: '7', adGroupId: '9', currency: 'USD', values: { cptBid: { amount: '1.2', currency: 'USD' }, status: 'ENABLED' }, changes: [] };
    expect(patchOf('KEYWORDS', answer)).toEqual({ cptBid: 1.2, keywordStatus: 'ACTIVE' });
    expect(patchOf('CAMPAIGNS', { ...answer, values: { dailyBudget: null, status: 'PAUSED' } })).toEqual({ dailyBudget: null, campaignStatus: 'PAUSED' });
  });

  it('floors amounts to the currency digits', () => {
    expect(amountText(2.257, 'USD')).toBe('2.25');
    expect(amountText(150.9, 'JPY')).toBe('150');
    expect(amountText(1.2345, 'KWD')).toBe('1.234');
    expect(amountText(0.3, 'USD')).toBe('0.30');
  });

  it('sends only what the bulk action uses', () => {
    expect(bulkEditPath('CAMPAIGNS', null)).toBe('/asa/campaigns/updates');
    expect(bulkEditPath('GROUPS', '7')).toBe('/asa/groups/updates/7');
    expect(bulkEditPath('KEYWORDS', null)).toBeNull();
    const base = { accountId: 'a1', orgId: '42', level: 'GROUPS' as const, campaignId: '7', ids: ['1', '2'] };
    expect(bulkEditBody({ ...base, field: 'defaultBidAmount', action: 'set', value: '1.00', floor: '0.50' })).toEqual({ ids: ['1', '2'], field: 'defaultBidAmount', action: 'set', value: '1.00' });
    expect(bulkEditBody({ ...base, field: 'defaultBidAmount', action: 'lower', value: '0.20', floor: '0.50' })).toEqual({ ids: ['1', '2'], field: 'defaultBidAmount', action: 'lower', value: '0.20', floor: '0.50' });
    expect(bulkEditBody({ ...base, field: 'cpaGoal', action: 'enable' })).toEqual({ ids: ['1', '2'], field: 'status', action: 'enable' });
  });

  it('reads the bulk form: nothing to send without an amount', () => {
    const form = { field: 'cptBid', mode: 'raise' as const, unit: 'percent' as const, value: '', floor: '', cap: '' };
    expect(bulkRequest(form, 'USD')).toEqual({ request: null, problems: {} });
    expect(bulkRequest({ ...form, value: 15 }, 'USD').request).toEqual({ percent: 15, floor: undefined, cap: undefined });
    expect(bulkRequest({ ...form, unit: 'amount', value: 0.5, floor: 1 }, 'USD').request).toEqual({ value: '0.50', floor: '1.00', cap: undefined });
    expect(bulkRequest({ ...form, mode: 'set', unit: 'amount', value: 20, cap: 1 }, 'JPY').request).toEqual({ value: '20' });
  });

  it("checks the bulk form with the server's rules and keeps signs", () => {
    const form = { field: 'cptBid', mode: 'set' as const, unit: 'amount' as const, value: '', floor: '', cap: '' };
    expect(bulkRequest({ ...form, value: -5 }, 'USD')).toEqual({ request: null, problems: { value: 'Bid cannot be negative' } });
    expect(bulkRequest({ ...form, value: 0 }, 'USD')).toEqual({ request: null, problems: { value: 'Bid must be more than 0' } });
    expect(bulkRequest({ ...form, value: 10 }, 'JPY').problems).toEqual({ value: 'Bid must be at least ¥15' });
    const raise = { ...form, mode: 'raise' as const };
    // An amount to raise by has no minimum of its own; floor and cap are bids.
    expect(bulkRequest({ ...raise, value: 0.05, floor: -1, cap: 0.01 }, 'USD').problems).toEqual({ floor: 'Floor cannot be negative', cap: 'Cap must be at least $0.10' });
    expect(bulkRequest({ ...raise, value: -0.05 }, 'USD').problems).toEqual({ value: 'Amount cannot be negative' });
    expect(bulkRequest({ ...raise, unit: 'percent', value: -10 }, 'USD').problems).toEqual({ value: 'Enter a percentage above 0' });
    expect(bulkRequest({ ...form, mode: 'lower', unit: 'percent', value: 150 }, 'USD').problems).toEqual({ value: 'A percentage is at most 100%' });
  });
});
