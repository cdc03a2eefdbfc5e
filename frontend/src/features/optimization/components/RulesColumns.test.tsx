import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { callsTo, mockApi, ok } from '@/test/fetch-mock';
import { makeAccount, makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { columnOf } from '../columns';
import { formatValue, optimizationText } from '../format-value';
import { Cell } from './cells';

jest.setTimeout(30_000);

describe('the CAMPAIGNS columns of automated rules (docs/api/rules.md)', () => {
  it('shows the rules attached as badges, switched-off ones marked', () => {
    const rules = [
      { id: 'r1', name: 'Pause wasters', enabled: true },
      { id: 'r2', name: 'Raise winners', enabled: false },
    ];
    render(<Cell level="CAMPAIGNS" column={columnOf('CAMPAIGNS', 'rules')} value={rules} currency="USD" />);
    const cell = screen.getByTestId('rules-cell');
    expect(within(cell).getByText('Pause wasters')).toHaveAttribute('title', 'Pause wasters');
    expect(within(cell).getByText('Raise winners')).toHaveAttribute('title', 'Raise winners (off)');
    expect(formatValue(columnOf('CAMPAIGNS', 'rules'), rules, 'USD')).toBe('Pause wasters, Raise winners (off)');
  });

  it('shows no rules as a dash', () => {
    render(<Cell level="CAMPAIGNS" column={columnOf('CAMPAIGNS', 'rules')} value={null} currency="USD" />);
    expect(document.body).toHaveTextContent('—');
  });

  it('shows the goal optimisation as its type and target in the currency', () => {
    expect(optimizationText({ type: 'CPA_GOAL', target: '2.50', maxStepPercent: '15' }, 'USD')).toBe('CPA goal $2.50');
    expect(optimizationText([{ type: 'CPT_GOAL', target: '120' }], 'JPY')).toBe('CPT goal ¥120');
    expect(optimizationText('CPA_GOAL', 'USD')).toBe('CPA goal');
    // Off, or Growth-locked (the report answers null and lists the column in `locked`).
    expect(optimizationText(null, 'USD')).toBe('—');
    expect(formatValue(columnOf('CAMPAIGNS', 'optimizationTypes'), { type: 'CPA_GOAL', target: '2.5' }, 'USD')).toBe('CPA goal $2.50');
  });
});

describe("the campaigns' alerts", () => {
  const account = makeAccount('a1', 'Main', [{ orgId: '42', displayName: 'Cloud Apps' }]);
  const report = {
    items: [
      { campaignId: '7', campaignName: 'Brand US', servingStatus: 'RUNNING', deleted: false, tag: [], localSpend: 10 },
      { campaignId: '8', campaignName: 'Generic', servingStatus: 'RUNNING', deleted: false, tag: [], localSpend: 0 },
    ],
    total: 2,
    totals: { localSpend: 10 },
    currency: 'USD',
    lastSyncedAt: '2026-11-19T10:00:00Z',
    locked: [],
    hidden: [],
    page: 1,
    pageSize: 50,
  };
  const alert = { id: 'al1', kind: 'BUDGET_EXHAUSTED', campaignId: '7', orgId: '42', accountId: 'a1', ruleId: null, runId: null, title: 'Daily budget exhausted', message: 'Brand US spent its daily cap', createdAt: 1764223200 };

  it("shows a warning on the campaign's name with its alerts, and dismisses one", async () => {
    mockApi('GET /api/account/getAll', ok({ items: [account] }));
    mockApi('POST /api/asa/reports', ok(report));
    mockApi('GET /api/alerts', ok({ items: [alert] }), ok({ items: [] }));
    mockApi('DELETE /api/alerts', ok({ deleted: 1 }));
    renderApp('/optimization/a1/42', makeUser());
    const table = await screen.findByTestId('report-table', {}, { timeout: 15_000 });
    const icon = await within(table).findByRole('button', { name: '1 alert of Brand US' });
    expect(callsTo('GET /api/alerts')[0]!.url).toBe('/api/alerts?campaignIds=7%2C8');
    expect(within(table).queryByRole('button', { name: /alerts of Generic/ })).not.toBeInTheDocument();
    await userEvent.click(icon);
    const list = await screen.findByRole('list', { name: 'Alerts' });
    expect(list).toHaveTextContent('Daily budget exhausted');
    expect(list).toHaveTextContent('Brand US spent its daily cap');
    await userEvent.click(within(list).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(callsTo('DELETE /api/alerts')).toHaveLength(1));
    expect(callsTo('DELETE /api/alerts')[0]!.body).toEqual({ alertIds: ['al1'] });
    await waitFor(() => expect(within(table).queryByRole('button', { name: '1 alert of Brand US' })).not.toBeInTheDocument());
  });
});
