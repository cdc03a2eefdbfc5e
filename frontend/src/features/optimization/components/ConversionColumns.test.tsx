/**
 * The report's Conversions and Cohort columns (docs/api/attribution.md, "In the reports"): their
 * cells shown as the report catalog says, and pro_limited's lock in the table and the
 * edit-columns modal. The cells are checked on the table on its own: the OpenAPI document does
 * not describe the rows' conversion members yet (its `ReportItem` has `trackedInstalls` as null
 * and no `roas`), so a mocked report holding values would fail the contract check.
 */
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { createQueryClient } from '@/lib/query-client';
import { mockApi, ok } from '@/test/fetch-mock';
import { makeAccount, makeReport, makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import type { ReportResult } from '../api/report';
import { columnLocks, ReportTable } from './ReportTable';

const account = makeAccount('a1', 'Main', [{ orgId: '42', displayName: 'Cloud Apps' }]);
const FIELDS = ['campaignName', 'localSpend', 'trackedInstalls', 'roas', 'costPerTrial', 'revenueD7'];
const LOCK = 'Upgrade to Pro to track events from your MMP.';
const CONVERSIONS = ['trackedInstalls', 'trackedInstallRate', 'trials', 'costPerTrial', 'purchases', 'costPerPurchase', 'totalRevenue', 'tapRevenue', 'viewRevenue', 'roas', 'arpu'];
const COHORT = ['revenueD0', 'revenueD1', 'revenueD3', 'revenueD7', 'revenueD14', 'revenueD30'];

function setup(locked: boolean, row: Record<string, unknown>) {
  const column = (key: string, group: boolean) => ({ key, locked: group && locked, lock: group && locked ? 'pro' : null, lockMessage: group && locked ? LOCK : null, hiddenByDefault: group, inDefault: !group });
  mockApi('GET /api/account/getAll', ok({ items: [account] }));
  mockApi(
    'POST /api/asa/reports',
    ok(
      makeReport([{ campaignId: '7', campaignName: 'Brand US', servingStatus: 'RUNNING', tag: [], localSpend: 10, ...row }], {
        locked: locked ? [...CONVERSIONS, ...COHORT] : [],
        lockedGroups: locked ? [{ name: 'Conversions', message: LOCK }, { name: 'Cohort', message: LOCK }] : [],
      }),
    ),
  );
  mockApi('GET /api/setFields/all/CAMPAIGNS', ok({ items: [{ _id: 'default-CAMPAIGNS', name: 'Default', type: 'CAMPAIGNS', fields: ['campaignName', 'localSpend'], isDefault: true }, { _id: 'p1', name: 'Revenue', type: 'CAMPAIGNS', fields: FIELDS, isDefault: false }] }));
  mockApi('GET /api/options/front', ok({ item: { 'optimization-column-presets': { CAMPAIGNS: 'p1' } }, version: 1 }));
  mockApi('GET /api/reports/allTags', ok({ CAMPAIGNS: [], GROUPS: [], KEYWORDS: [], SEARCHTERMS: [] }));
  mockApi(
    'GET /api/setFields/fields/CAMPAIGNS',
    ok({
      items: [
        { name: 'Attributes', fields: [column('campaignName', false)] },
        { name: 'Metrics', fields: [column('localSpend', false)] },
        { name: 'Conversions', fields: CONVERSIONS.map((key) => column(key, true)) },
        { name: 'Cohort', fields: COHORT.map((key) => column(key, true)) },
      ],
    }),
  );
}

jest.setTimeout(20_000);

describe('the Conversions and Cohort columns', () => {
  it('show each display kind: counts, percentages and money in the report’s currency', () => {
    const row = { campaignId: '7', campaignName: 'Brand US', localSpend: 10, trackedInstalls: 1234, roas: 1.5, costPerTrial: null, revenueD7: -4.99 };
    const result = makeReport([row], { currency: 'EUR' }) as unknown as ReportResult;
    const { getByRole, getAllByRole } = render(
      <MantineProvider env="test">
        <QueryClientProvider client={createQueryClient()}>
          <MemoryRouter>
            <ReportTable level="CAMPAIGNS" result={result} rowLink={() => null} sort={null} onSort={() => {}} stale={false} columns={FIELDS} rowId={(r) => String(r.campaignId)} selected={new Set()} onSelect={() => {}} />
          </MemoryRouter>
        </QueryClientProvider>
      </MantineProvider>,
    );
    expect(getAllByRole('columnheader').map((h) => h.textContent).slice(1)).toEqual(['Campaign', 'Spend', 'Tracked installs', 'ROAS', 'Cost per trial', 'Revenue D7']);
    const cells = within(getByRole('cell', { name: 'Brand US' }).closest('tr')!).getAllByRole('cell').map((c) => c.textContent);
    expect(cells.slice(-4)).toEqual(['1 234', '150%', '—', '-€4.99']);
  });

  it('take the Pro lock of their group, the other locked columns Growth’s', () => {
    const locks = columnLocks(['roas', 'revenueD0', 'qsStatus'], [{ name: 'Conversions', message: LOCK }, { name: 'Cohort', message: LOCK }]);
    expect(locks.get('roas')).toEqual({ plan: 'pro', message: LOCK });
    expect(locks.get('revenueD0')).toEqual({ plan: 'pro', message: LOCK });
    expect(locks.get('qsStatus')).toEqual({ plan: 'growth' });
    expect(columnLocks(['roas'], []).get('roas')).toEqual({ plan: 'growth' });
  });

  it('are locked on pro_limited with the Pro badge and the message, in the table and the edit-columns modal', async () => {
    // Locked columns are answered null; the document does not list them on rows yet, so the row leaves them out.
    setup(true, {});
    renderApp('/optimization/a1/42', makeUser());
    const table = await screen.findByTestId('report-table', {}, { timeout: 10_000 });
    await waitFor(() => expect(within(table).getAllByText('Pro')).toHaveLength(4));
    await userEvent.hover(within(table).getAllByText('Pro')[0]!);
    expect(await screen.findByText(LOCK)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /Columns/ }));
    const modal = await screen.findByRole('dialog', { name: 'Edit columns' });
    const groups = await within(modal).findByTestId('column-groups');
    expect(within(groups).getByText('Conversions')).toBeInTheDocument();
    expect(within(groups).getByText('Cohort')).toBeInTheDocument();
    expect(within(groups).getByTestId('group-lock-Conversions')).toHaveTextContent(LOCK);
    expect(within(groups).getByTestId('group-lock-Cohort')).toHaveTextContent(LOCK);
    expect(within(groups).queryByTestId('group-lock-Metrics')).not.toBeInTheDocument();
    for (const label of ['Tracked installs', 'Tracked install rate', 'Trials', 'Cost per trial', 'Purchases', 'Cost per purchase', 'Revenue', 'Tap-through revenue', 'View-through revenue', 'ROAS', 'ARPU', 'Revenue D0', 'Revenue D1', 'Revenue D3', 'Revenue D7', 'Revenue D14', 'Revenue D30']) {
      expect(within(groups).getByRole('checkbox', { name: label })).toBeInTheDocument();
    }
  });
});
