import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { callsTo, mockApi, ok } from '@/test/fetch-mock';
import { makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const APP = { adamId: '900001', appName: 'Budget Buddy', developerName: 'Acme', currency: 'EUR', installs: 2, events: 1, revenues: 0 };
const REFERENCE = [
  {
    metric: 'cpa',
    category: 'All categories',
    value: '2.58',
    unit: 'USD',
    source: 'SplitMetrics Apple Search Ads Search Results Benchmarks Report 2024',
    url: 'https://www.businessofapps.com/insights/top-global-app-categories-by-popularity-cost/',
    reportUrl: 'https://splitmetrics.com/apple-search-ads-search-results-benchmarks-2024/1-introduction/',
    period: 'January — December 2023',
    n: 166700000,
    nOf: 'downloads',
  },
];
const installs = (items: unknown[] = []) =>
  ok({ appName: 'Budget Buddy', currency: 'EUR', category: 'Finance', items, reference: REFERENCE });
const COUNTRIES = ok({ items: [{ code: 'US', name: 'United States' }, { code: 'DE', name: 'Germany' }] });

describe('Settings › Benchmarks', () => {
  it('lists the workspace’s apps with their targets, each opening its page', async () => {
    mockApi('GET /api/benchmarks/apps', ok({ items: [APP, { ...APP, adamId: '900002', appName: null, developerName: null, installs: 0, events: 0 }] }));
    renderApp('/settings/benchmarks', makeUser({ permission: 'reader' }));
    const table = await screen.findByRole('table', { name: 'Benchmarks' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByRole('link', { name: 'Set targets for Budget Buddy' })).toHaveAttribute('href', '/settings/benchmarks/app?adamId=900001');
    expect(within(rows[1]!).getByText('App 900002')).toBeInTheDocument();
    expect(within(rows[0]!).getAllByRole('cell').map((c) => c.textContent)).toEqual(['Budget BuddyAcme · 900001', 'EUR', '2', '1', '0']);
    expect(screen.getByRole('tab', { name: 'Benchmarks', selected: true })).toBeInTheDocument();
  });

  it('says where apps come from when there are none', async () => {
    mockApi('GET /api/benchmarks/apps', ok({ items: [] }));
    renderApp('/settings/benchmarks', makeUser());
    expect(await screen.findByText('Apps appear here once a connected account’s campaigns have synced.')).toBeInTheDocument();
  });
});

describe('Settings › Benchmarks › an app', () => {
  it('shows the targets beside the published reference and saves only what changed', async () => {
    const user = userEvent.setup();
    const stored = [
      { adamId: '900001', country: null, costPerInstall: '2.5', currency: 'EUR', updatedAt: 1 },
      { adamId: '900001', country: 'US', costPerInstall: '3', currency: 'EUR', updatedAt: 1 },
    ];
    mockApi('GET /api/benchmarks/installs/getAll/900001', installs(stored), installs(stored));
    mockApi('GET /api/country/allWithCodes', COUNTRIES);
    mockApi('GET /api/benchmarks/apps', ok({ items: [APP] }));
    mockApi('PATCH /api/benchmarks/installs/many', ok({ items: [] }));
    renderApp('/settings/benchmarks/app?adamId=900001', makeUser({ permission: 'writer' }));
    const table = await screen.findByRole('table', { name: 'Installs' });
    expect(screen.getByRole('heading', { name: 'Budget Buddy' })).toBeInTheDocument();
    const all = within(table).getByRole('textbox', { name: 'Cost per install (EUR), All countries' });
    expect(all).toHaveValue('2.5');
    const us = await within(table).findByRole('textbox', { name: 'Cost per install (EUR), United States' });
    expect(us).toHaveValue('3');
    // The reference is labelled as such, with its source, period and sample.
    const reference = screen.getByRole('complementary', { name: 'Published reference' });
    expect(within(reference).getByText('Cost per install (CPA): 2.58 USD')).toBeInTheDocument();
    expect(within(reference).getByText('January — December 2023 · n = 166 700 000 downloads')).toBeInTheDocument();
    expect(within(reference).getByRole('link', { name: /SplitMetrics/ })).toHaveAttribute('href', REFERENCE[0]!.url);

    const save = screen.getByRole('button', { name: 'Save targets' });
    expect(save).toBeDisabled();
    await user.clear(all);
    await user.type(all, '2.555');
    expect(await screen.findByText('A number of at least 0 with at most 2 decimals')).toBeInTheDocument();
    expect(save).toBeDisabled();
    await user.clear(all);
    await user.type(all, '1.99');
    await user.click(within(table).getByRole('button', { name: 'Clear the targets of United States' }));
    await user.click(save);
    await waitFor(() => expect(callsTo('PATCH /api/benchmarks/installs/many')).toHaveLength(1));
    expect(callsTo('PATCH /api/benchmarks/installs/many')[0]!.body).toEqual({
      items: [
        { adamId: '900001', country: null, costPerInstall: '1.99', currency: 'EUR' },
        { adamId: '900001', country: 'US', costPerInstall: null, currency: 'EUR' },
      ],
    });
    expect(await screen.findByText('Targets saved')).toBeInTheDocument();
  });

  it('shows a reader the targets read-only', async () => {
    mockApi('GET /api/benchmarks/installs/getAll/900001', installs([{ adamId: '900001', country: null, costPerInstall: '2.5', currency: 'EUR', updatedAt: 1 }]));
    mockApi('GET /api/country/allWithCodes', COUNTRIES);
    renderApp('/settings/benchmarks/app?adamId=900001', makeUser({ permission: 'reader' }));
    const input = await screen.findByRole('textbox', { name: 'Cost per install (EUR), All countries' });
    expect(input).toHaveAttribute('readonly');
    expect(screen.queryByRole('button', { name: 'Save targets' })).not.toBeInTheDocument();
    expect(screen.getByText('Ask an admin or editor to change the targets.')).toBeInTheDocument();
  });

  it('sets ROAS per cohort window and a cost per event of a picked MMP event', async () => {
    const user = userEvent.setup();
    mockApi('GET /api/benchmarks/installs/getAll/900001', installs());
    mockApi('GET /api/country/allWithCodes', COUNTRIES);
    mockApi('GET /api/benchmarks/revenues/getAll/900001', ok({ appName: 'Budget Buddy', currency: 'EUR', category: null, items: [], reference: [] }));
    mockApi('PATCH /api/benchmarks/revenues/many', ok({ items: [] }));
    mockApi('GET /api/benchmarks/apps', ok({ items: [APP] }));
    mockApi(
      'GET /api/mmpEventsSettings/allNames',
      ok({
        items: [
          { provider: 'appsflyer', adamId: '900001', eventName: 'af_start_trial', countsAs: { trial: true, purchase: false, revenue: false }, events: 3, firstSeenAt: 1, lastSeenAt: 2 },
          { provider: 'appsflyer', adamId: '777', eventName: 'other_app_event', countsAs: { trial: false, purchase: false, revenue: false }, events: 1, firstSeenAt: 1, lastSeenAt: 2 },
        ],
      }),
    );
    mockApi('GET /api/benchmarks/events/getAll/900001/af_start_trial', ok({ appName: 'Budget Buddy', currency: 'EUR', category: null, items: [], reference: [] }));
    mockApi('PATCH /api/benchmarks/events/many', ok({ items: [] }));
    renderApp('/settings/benchmarks/app?adamId=900001', makeUser());
    await user.click(await screen.findByRole('tab', { name: 'Revenue' }));
    const table = await screen.findByRole('table', { name: 'Revenue' });
    await user.type(within(table).getByRole('textbox', { name: 'ROAS D7, All countries' }), '120');
    expect(screen.getByText('No published figures with a known sample size exist for these targets, so none are shown.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save targets' }));
    await waitFor(() => expect(callsTo('PATCH /api/benchmarks/revenues/many')).toHaveLength(1));
    expect(callsTo('PATCH /api/benchmarks/revenues/many')[0]!.body).toEqual({ items: [{ adamId: '900001', cohort: 'roasD7', country: null, roas: '1.2' }] });

    await user.click(screen.getByRole('tab', { name: 'Events' }));
    const events = await screen.findByRole('table', { name: 'Events: af_start_trial' });
    expect(screen.getByRole('combobox', { name: 'Event' })).toHaveValue('af_start_trial');
    await user.type(within(events).getByRole('textbox', { name: 'Cost per event (EUR), All countries' }), '12');
    await user.click(screen.getByRole('button', { name: 'Save targets' }));
    await waitFor(() => expect(callsTo('PATCH /api/benchmarks/events/many')).toHaveLength(1));
    expect(callsTo('PATCH /api/benchmarks/events/many')[0]!.body).toEqual({ items: [{ adamId: '900001', eventName: 'af_start_trial', country: null, costPerEvent: '12', currency: 'EUR' }] });
  });
});
