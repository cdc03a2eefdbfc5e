import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { callsTo, held, mockApi, ok } from '@/test/fetch-mock';
import { makeAccount, makeUser, makeReport } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const accounts = [makeAccount('a1', 'Main', [{ orgId: '42', displayName: 'Cloud Apps' }]), makeAccount('a2', 'Euro', [{ orgId: '5', displayName: 'EU' }])];

function answer(items: Record<string, unknown>[], currency: string | null) {
  return makeReport(items, { totals: { localSpend: null, taps: 30 }, currency: currency, lastSyncedAt: '2026-11-19T10:00:00Z' });
}

/** The table's report calls (the chart asks for the graph with its own). */
const tableCalls = () => callsTo('POST /api/asa/reports').filter((c) => !(c.body as { graph?: boolean }).graph);

// A report table renders slowly in jsdom.
jest.setTimeout(20_000);

describe('All accounts and campaign groups', () => {
  beforeEach(() => window.localStorage.clear());

  it("asks an account's campaign groups and their chart while the accounts still load (issue 42 item 19: no round trip before the first paint)", async () => {
    const list = held(ok({ items: accounts }));
    mockApi('GET /api/account/getAll', list.answer);
    mockApi('POST /api/asa/reports', ok(answer([{ orgId: '42', orgName: 'Cloud Apps', currency: 'USD', localSpend: 10, taps: 3 }], 'USD')));
    renderApp('/optimization/a1', makeUser());
    // The accounts are still held: the table's and the chart's reports are asked all the same.
    await waitFor(() => expect(tableCalls()).toHaveLength(1));
    expect(callsTo('POST /api/asa/reports').some((c) => (c.body as { graph?: boolean }).graph)).toBe(true);
    expect(tableCalls()[0]!.url).toContain('accountId=a1');
    list.release();
    expect(await screen.findByRole('heading', { name: 'Main' })).toBeInTheDocument();
  });

  it("asks an account's campaign groups and their chart from the address beside the start-up relogin, and the screen reads those answers (issue 42 item 19)", async () => {
    const relogin = held(ok({ item: makeUser() }));
    mockApi('GET /api/auth/relogin', relogin.answer);
    mockApi('GET /api/account/getAll', ok({ items: accounts }));
    mockApi('POST /api/asa/reports', ok(answer([{ orgId: '42', orgName: 'Cloud Apps', status: 'SELECTED', currency: 'USD', localSpend: 10, taps: 3 }], 'USD')));
    renderApp('/optimization/a1?range=yesterday&sort=taps', makeUser());
    // The relogin is still held (nothing of the page has rendered): both reports are asked.
    await waitFor(() => expect(tableCalls()).toHaveLength(1));
    expect(callsTo('GET /api/auth/relogin')).toHaveLength(1);
    expect(screen.queryByTestId('report-table')).not.toBeInTheDocument();
    expect(tableCalls()[0]!.url).toBe('/api/asa/reports?accountId=a1');
    expect(tableCalls()[0]!.body).toMatchObject({ level: 'ORGS', sort: { field: 'taps', order: 'desc' }, page: 1, pageSize: 50 });
    expect(callsTo('POST /api/asa/reports').filter((c) => (c.body as { graph?: boolean }).graph)).toHaveLength(1);
    relogin.release();
    const table = await screen.findByTestId('report-table', {}, { timeout: 10_000 });
    expect(await within(table).findByRole('link', { name: 'Cloud Apps' })).toHaveAttribute('href', '/optimization/a1/42?range=yesterday');
    // The screen's own requests are the ones asked early: nothing is asked twice.
    expect(tableCalls()).toHaveLength(1);
    expect(callsTo('POST /api/asa/reports').filter((c) => (c.body as { graph?: boolean }).graph)).toHaveLength(1);
  });

  it('lists every account with its totals in its own currency, each opening its campaign groups', async () => {
    mockApi('GET /api/account/getAll', ok({ items: accounts }));
    mockApi(
      'POST /api/asa/reports',
      ok(
        answer(
          [
            { accountId: 'a1', accountName: 'Main', status: 'ACTIVE', currency: 'USD', localSpend: 1234.5, taps: 10 },
            { accountId: 'a2', accountName: 'Euro', status: 'ACTIVE', currency: 'EUR', localSpend: 99, taps: 20 },
          ],
          null,
        ),
      ),
    );
    renderApp('/optimization/accounts?range=yesterday', makeUser());
    const table = await screen.findByTestId('report-table', {}, { timeout: 10_000 });
    expect(await within(table).findByRole('link', { name: 'Main' })).toHaveAttribute('href', '/optimization/a1?range=yesterday');
    expect(within(table).getByRole('link', { name: 'Euro' })).toHaveAttribute('href', '/optimization/a2?range=yesterday');
    expect(within(table).getByText('$1 234.50')).toBeInTheDocument();
    expect(within(table).getByText('€99.00')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'All accounts' })).toBeInTheDocument();
    // No campaign group is named: the rows are every account of the workspace.
    const call = tableCalls()[0]!;
    expect(call.url).toBe('/api/asa/reports?accountId=a1');
    expect(call.body).toMatchObject({ level: 'ACCOUNTS', page: 1, pageSize: 50 });
    expect(call.body).not.toHaveProperty('campaignId');
  });

  it("lists an account's campaign groups, links the All accounts crumb and makes the account active", async () => {
    mockApi('GET /api/account/getAll', ok({ items: accounts }));
    mockApi('POST /api/asa/reports', ok(answer([{ orgId: '5', orgName: 'EU', status: 'SELECTED', currency: 'EUR', timeZone: 'Europe/Paris', localSpend: 12 }], 'EUR')));
    renderApp('/optimization/a2', makeUser());
    const table = await screen.findByTestId('report-table', {}, { timeout: 10_000 });
    expect(await within(table).findByRole('link', { name: 'EU' })).toHaveAttribute('href', '/optimization/a2/5');
    expect(within(table).getByText('In use')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Euro' })).toBeInTheDocument();
    expect(within(screen.getByTestId('breadcrumbs')).getByRole('link', { name: 'All accounts' })).toHaveAttribute('href', '/optimization/accounts');
    expect(tableCalls()[0]!.body).toMatchObject({ level: 'ORGS' });
    expect(JSON.parse(window.localStorage.getItem('searchdeck:active-account:ann@example.com')!)).toEqual({ accountId: 'a2', orgId: null });
  });

  it('adds no money up across currencies', async () => {
    mockApi('GET /api/account/getAll', ok({ items: accounts }));
    const rows = [
      { orgId: '42', orgName: 'Cloud Apps', status: 'SELECTED', currency: 'USD', localSpend: 1000, taps: 10 },
      { orgId: '43', orgName: 'Cloud Media', status: 'SELECTED', currency: 'JPY', localSpend: 111, taps: 20 },
    ];
    mockApi('POST /api/asa/reports', ok({ ...answer(rows, null), totals: { localSpend: 1111, taps: 30 } }));
    renderApp('/optimization/a1', makeUser());
    const table = await screen.findByTestId('report-table', {}, { timeout: 10_000 });
    expect(await within(table).findByText('$1 000.00')).toBeInTheDocument();
    expect(within(table).getByText('¥111')).toBeInTheDocument();
    const totals = within(table).getByTestId('totals-row');
    expect(totals).toHaveTextContent('30');
    expect(totals).not.toHaveTextContent('1 111');
    // Spend, and the averages of money (CPM, CPT, CPA), are dashes.
    const money = within(totals).getAllByTitle('Amounts in different currencies are not added up');
    expect(money).toHaveLength(4);
    for (const cell of money) expect(cell).toHaveTextContent('—');
  });

  it('gives per-currency subtotals under the total of several currencies', async () => {
    mockApi('GET /api/account/getAll', ok({ items: accounts }));
    const rows = [
      { orgId: '42', orgName: 'Cloud Apps', status: 'SELECTED', currency: 'USD', localSpend: 1000, avgCPT: 100, taps: 10 },
      { orgId: '43', orgName: 'Cloud Media', status: 'SELECTED', currency: 'JPY', localSpend: 111, avgCPT: 5, taps: 20 },
    ];
    const subtotals = [
      { currency: 'JPY', localSpend: 111, avgCPT: 5, taps: 20 },
      { currency: 'USD', localSpend: 1000, avgCPT: 100, taps: 10 },
    ];
    mockApi('POST /api/asa/reports', ok({ ...answer(rows, null), subtotals }));
    renderApp('/optimization/a1', makeUser());
    const table = await screen.findByTestId('report-table', {}, { timeout: 10_000 });
    const subs = await within(table).findAllByTestId('subtotal-row');
    expect(subs.map((r) => r.getAttribute('data-currency'))).toEqual(['JPY', 'USD']);
    expect(subs[0]).toHaveTextContent('Total in JPY');
    expect(subs[0]).toHaveTextContent('¥111');
    expect(subs[1]).toHaveTextContent('Total in USD');
    expect(subs[1]).toHaveTextContent('$1 000.00');
    expect(subs[1]).toHaveTextContent('$100.00');
    expect(screen.queryByTestId('converted-row')).not.toBeInTheDocument();
  });

  it('converts the totals to the reporting currency the user chooses, saying at which rates', async () => {
    mockApi('GET /api/account/getAll', ok({ items: accounts }));
    mockApi('GET /api/options/front', ok({ item: {}, version: 1 }));
    mockApi('PUT /api/options/front', ok({ item: { 'reporting-currency': 'EUR' }, version: 2 }));
    const rows = [
      { orgId: '42', orgName: 'Cloud Apps', status: 'SELECTED', currency: 'USD', localSpend: 108.7, taps: 10 },
      { orgId: '43', orgName: 'Cloud Media', status: 'SELECTED', currency: 'JPY', localSpend: 16304, taps: 20 },
    ];
    const converted = { currency: 'EUR', rateDate: '2026-11-20', askedDate: '2026-11-22', source: 'ECB', missing: [], totals: { localSpend: 199.99, avgCPT: 6.66, taps: 30 } };
    mockApi('POST /api/asa/reports', (call) => ok({ ...answer(rows, null), ...((call.body as { reportingCurrency?: string }).reportingCurrency === 'EUR' ? { converted } : {}) }));
    renderApp('/optimization/a1', makeUser());
    const table = await screen.findByTestId('report-table', {}, { timeout: 10_000 });
    await within(table).findByText('$108.70');
    expect(within(table).queryByTestId('converted-row')).not.toBeInTheDocument();

    const picker = await screen.findByRole('combobox', { name: 'Reporting currency' });
    await waitFor(() => expect(picker).not.toBeDisabled());
    fireEvent.click(picker);
    fireEvent.click(await screen.findByRole('option', { name: 'EUR · Euro' }));
    await waitFor(() => expect(callsTo('PUT /api/options/front')[0]?.body).toEqual({ 'reporting-currency': 'EUR' }));

    const row = await within(table).findByTestId('converted-row', {}, { timeout: 10_000 });
    expect(row).toHaveTextContent('≈ Total in EUR');
    expect(row).toHaveTextContent('≈ €199.99');
    expect(row).toHaveTextContent('≈ €6.66');
    const note = '≈ converted to EUR at ECB reference rates of 20/11/2026 (the latest published on or before 22/11/2026)';
    expect(screen.getByTestId('converted-note')).toHaveTextContent(note);
    expect(within(row).getAllByTitle(note).length).toBeGreaterThan(0);
    expect(tableCalls().at(-1)!.body).toMatchObject({ reportingCurrency: 'EUR' });
  });

  it('shows a campaign group still syncing as syncing, not as zeros, and reads the report again', async () => {
    mockApi('GET /api/account/getAll', ok({ items: accounts }));
    const rows = [
      { orgId: '42', orgName: 'Cloud Apps', status: 'SELECTED', currency: 'USD', localSpend: 12.5, taps: 10, syncing: false },
      { orgId: '43', orgName: 'Cloud Media', status: 'SELECTED', currency: 'USD', localSpend: 0, taps: 0, syncing: true },
    ];
    mockApi('POST /api/asa/reports', ok({ ...answer(rows, 'USD'), totals: { localSpend: 12.5, taps: 10 }, lastSyncedAt: null, syncing: true }));
    renderApp('/optimization/a1', makeUser());
    const table = await screen.findByTestId('report-table', {}, { timeout: 10_000 });
    await within(table).findAllByText('$12.50');
    const media = within(table).getByRole('link', { name: 'Cloud Media' }).closest('tr')!;
    expect(within(media).getByTestId('row-syncing')).toHaveTextContent('Syncing…');
    expect(within(media).getAllByTestId('cell-syncing').length).toBeGreaterThan(0);
    expect(media).not.toHaveTextContent('$0.00');
    const apps = within(table).getByRole('link', { name: 'Cloud Apps' }).closest('tr')!;
    expect(within(apps).queryByTestId('row-syncing')).not.toBeInTheDocument();
  });

  it('sends a user without accounts to the API connection screen', async () => {
    mockApi('GET /api/account/getAll', ok({ items: [] }));
    const { location } = renderApp('/optimization/accounts', makeUser());
    expect(await screen.findByRole('heading', { name: 'Connect your Apple Ads account' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(location()).toBe('/oauth_v2');
  });
});
