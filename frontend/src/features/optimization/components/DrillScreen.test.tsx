import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { callsTo, fail, mockApi, ok } from '@/test/fetch-mock';
import { makeAccount, makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const account = makeAccount('a1', 'Main', [{ orgId: '42', displayName: 'Cloud Apps' }]);

function report(overrides: Record<string, unknown> = {}) {
  return {
    items: [
      {
        campaignId: '7',
        campaignName: 'Brand US',
        servingStatus: 'RUNNING',
        deleted: false,
        tag: [{ id: 't1', name: 'Top', color: 'Green' }],
        dailyBudget: 1234.5,
        optimizationTypes: null,
        localSpend: 12345.678,
        ttr: 0.0523,
        taps: 1200,
        impressions: 23000,
      },
      { campaignId: '8', campaignName: 'Generic', servingStatus: 'TOTAL_BUDGET_EXHAUSTED', deleted: false, tag: [], localSpend: 0 },
    ],
    total: 2,
    totals: { localSpend: 12345.678, taps: 1200, impressions: 23000, ttr: 0.0523 },
    currency: 'USD',
    lastSyncedAt: '2026-11-19T10:00:00Z',
    locked: ['optimizationTypes'],
    lockedGroups: [],
    syncing: false,
    hidden: ['rules', 'totalRevenue', 'trackedInstalls'],
    page: 1,
    pageSize: 50,
    ...overrides,
  };
}

/** The table's report calls (the chart asks for the graph with its own). */
const tableCalls = () => callsTo('POST /api/asa/reports').filter((c) => !(c.body as { graph?: boolean }).graph);

// A table of 25 columns renders slowly in jsdom.
jest.setTimeout(20_000);

describe('drill-down table', () => {
  beforeEach(() => window.localStorage.clear());

  it('shows the level columns (without those the plan cannot see), statuses, money and totals, and asks for the URL state', async () => {
    mockApi('GET /api/account/getAll', ok({ items: [account] }));
    mockApi('GET /api/asa/campaigns/list', ok({ items: [] }));
    mockApi('POST /api/asa/reports', ok(report()));
    renderApp('/optimization/a1/42?range=yesterday&sort=taps&order=asc&page=1', makeUser());
    const table = await screen.findByTestId('report-table', {}, { timeout: 15_000 });
    expect(await within(table).findByRole('link', { name: 'Brand US' })).toHaveAttribute('href', '/optimization/a1/42/campaign-id-7/groups?range=yesterday');
    expect(within(table).getByText('Running').closest('[data-tone]')).toHaveAttribute('data-tone', 'running');
    expect(within(table).getByText('Budget exhausted').closest('[data-tone]')).toHaveAttribute('data-tone', 'error');
    expect(within(table).getAllByText('$12 345.67')).toHaveLength(2);
    expect(within(table).getByText('$1 234.50')).toBeInTheDocument();
    expect(within(table).getAllByText('5.23%')).toHaveLength(2);
    expect(within(table).getByTestId('totals-row')).toHaveTextContent('Total (2 rows)');
    // Default leaves out the column the plan cannot see (the columns modal keeps its badge).
    expect(within(table).queryByText('Growth')).not.toBeInTheDocument();
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).not.toContain('Optimization');
    expect(within(table).queryByRole('button', { name: 'Revenue' })).not.toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: /Taps/ })).toHaveAttribute('aria-sort', 'ascending');
    const body = tableCalls()[0]!.body as Record<string, unknown>;
    expect(body).toMatchObject({ level: 'CAMPAIGNS', sort: { field: 'taps', order: 'asc' }, page: 1, pageSize: 50 });
    expect(body.startDate).toBe(body.endDate);
    expect(screen.getByTestId('breadcrumbs')).toHaveTextContent('All accounts');
    expect(screen.getByTestId('breadcrumbs')).toHaveTextContent('Cloud Apps');
    expect(screen.getByTestId('report-last-synced')).toHaveTextContent('Last synced');
  });

  it('sorts on the server from a header click, writing sort into the address', async () => {
    mockApi('GET /api/account/getAll', ok({ items: [account] }));
    mockApi('POST /api/asa/reports', ok(report()));
    const { location } = renderApp('/optimization/a1/42', makeUser());
    const table = await screen.findByTestId('report-table');
    await within(table).findByRole('link', { name: 'Brand US' });
    await userEvent.click(within(table).getByRole('button', { name: 'Spend' }));
    await waitFor(() => expect(location()).toBe('/optimization/a1/42?sort=localSpend'));
    await waitFor(() => expect(tableCalls().at(-1)!.body).toMatchObject({ sort: { field: 'localSpend', order: 'desc' } }));
    await userEvent.click(within(table).getByRole('button', { name: 'Spend' }));
    await waitFor(() => expect(location()).toBe('/optimization/a1/42?sort=localSpend&order=asc'));
  });

  it('says why it is empty: not synced yet, or nothing in the range', async () => {
    mockApi('GET /api/account/getAll', ok({ items: [account] }));
    mockApi('POST /api/asa/reports', ok(report({ items: [], total: 0, totals: {}, lastSyncedAt: null })));
    renderApp('/optimization/a1/42/campaign-id-7/ad-group-id-9/keywords', makeUser());
    expect(await screen.findByTestId('empty-state')).toHaveTextContent('Not synced yet');
    expect(screen.getByRole('tab', { name: 'Keywords', selected: true })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Ad groups' })).not.toBeInTheDocument();
    const body = tableCalls()[0]!.body;
    expect(body).toMatchObject({ level: 'KEYWORDS', campaignId: '7', adGroupId: '9' });
  });

  it('tells a synced but empty range apart, and shows server errors', async () => {
    mockApi('GET /api/account/getAll', ok({ items: [account] }));
    mockApi('POST /api/asa/reports', ok(report({ items: [], total: 0, totals: {} })));
    renderApp('/optimization/a1/42/campaign-id-7/groups', makeUser());
    expect(await screen.findByTestId('empty-state')).toHaveTextContent('Nothing in this date range');
  });

  it('shows the error of a refused report', async () => {
    mockApi('GET /api/account/getAll', ok({ items: [account] }));
    mockApi('POST /api/asa/reports', fail(400, 'Unknown column for this level'));
    renderApp('/optimization/a1/42?sort=nope', makeUser());
    expect(await screen.findByTestId('empty-state')).toHaveTextContent('Unknown column for this level');
  });

  it('refuses addresses that are not levels', async () => {
    mockApi('GET /api/account/getAll', ok({ items: [account] }));
    renderApp('/optimization/a1/42/campaign-id-7/budget', makeUser());
    expect(await screen.findByText('This address is not a level of the drill-down.')).toBeInTheDocument();
  });
});
