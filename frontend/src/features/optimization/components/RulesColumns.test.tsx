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
    // Goals on the attributed conversions: a cost in the currency, a ROAS in percent on its cohort.
    expect(optimizationText({ type: 'COST_PER_TRIAL_GOAL', target: '4.5', cohortDay: null }, 'USD')).toBe('Cost per trial goal $4.50');
    expect(optimizationText({ type: 'ROAS_GOAL', target: '120', cohortDay: 7 }, 'USD')).toBe('ROAS D7 goal 120 %');
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
    lockedGroups: [],
    syncing: false,
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

/** A stored rule of the group as `GET rules/all` answers it (docs/api/rules.md "A rule"). */
function storedRule({ id = 'r1', name = 'Pause wasters', enabled = true }: { id?: string; name?: string; enabled?: boolean } = {}) {
  return {
    id,
    version: 1,
    name,
    enabled,
    accountId: 'a1',
    orgId: '42',
    currency: 'USD',
    level: 'KEYWORDS',
    campaignIds: ['7'],
    conditions: { operator: 'AND', groups: [{ operator: 'AND', conditions: [{ type: 'metric', metric: 'taps', operator: 'GREATER_THAN', value: '1' }] }] },
    window: { type: 'last', days: 7, excludeToday: true },
    frequency: { type: 'daily', hour: 6 },
    actions: [{ type: 'pause' }],
    guardrails: { minBid: null, maxBid: null, minBudget: null, maxBudget: null, maxChangePercent: null, maxEntities: null, minData: [] },
    createdBy: 'ann@example.com',
    createdAt: 1764200000,
    updatedAt: 1764200000,
    lastRun: null,
  };
}

describe("a campaign's goal optimisation and rules, edited from the campaigns table", () => {
  const account = makeAccount('a1', 'Main', [{ orgId: '42', displayName: 'Cloud Apps' }]);
  const fields = ['campaignName', 'servingStatus', 'optimizationTypes', 'rules', 'localSpend'];
  const report = (locked: string[] = [], optimizationTypes: unknown = null) => ({
    items: [
      {
        campaignId: '7',
        campaignName: 'Brand US',
        servingStatus: 'RUNNING',
        deleted: false,
        tag: [],
        localSpend: 10,
        optimizationTypes,
        rules: [{ id: 'r1', name: 'Pause wasters', enabled: true }],
      },
    ],
    total: 1,
    totals: { localSpend: 10 },
    currency: 'USD',
    lastSyncedAt: '2026-11-19T10:00:00Z',
    locked,
    lockedGroups: [],
    syncing: false,
    hidden: [],
    page: 1,
    pageSize: 50,
  });
  const defaults = (newestDayAgo: number, cohortDay: number | null) => ({ maxStepPercent: '20', windowDays: 14, newestDayAgo, hour: 6, minTaps: 10, cohortDay });
  const types = {
    items: [
      { type: 'CPA_GOAL', name: 'CPA goal', description: 'Moves bids toward the target CPA', targetRequired: false, targetUnit: 'money', conversions: false, cohortDays: [], defaults: defaults(1, null) },
      { type: 'CPT_GOAL', name: 'CPT goal', description: 'Moves bids toward the target CPT', targetRequired: true, targetUnit: 'money', conversions: false, cohortDays: [], defaults: defaults(1, null) },
      { type: 'ROAS_GOAL', name: 'ROAS goal', description: 'Moves bids toward the target cohort ROAS', targetRequired: true, targetUnit: 'percent', conversions: true, cohortDays: [0, 1, 3, 7, 14, 30], defaults: defaults(8, 7) },
    ],
    campaigns: [],
  };

  function setup(locked: string[] = [], optimizationTypes: unknown = null) {
    mockApi('GET /api/account/getAll', ok({ items: [account] }));
    mockApi('POST /api/asa/reports', ok(report(locked, optimizationTypes)));
    mockApi('GET /api/setFields/all/CAMPAIGNS', ok({ items: [{ _id: 'p1', name: 'Automation', type: 'CAMPAIGNS', fields, isDefault: false }] }));
    mockApi('GET /api/options/front', ok({ item: { 'optimization-column-presets': { CAMPAIGNS: 'p1' } }, version: 1 }));
    mockApi('GET /api/alerts', ok({ items: [] }));
    mockApi('GET /api/optimization/all/rules', ok(types));
    mockApi('GET /api/rules/all', ok({ items: [storedRule({ id: 'r1', name: 'Pause wasters' }), storedRule({ id: 'r2', name: 'Raise winners', enabled: false })] }));
  }

  const reportCalls = () => callsTo('POST /api/asa/reports').filter((c) => !(c.body as { graph?: boolean }).graph).length;

  it("sets the campaign's optimisation type, target and step", async () => {
    setup();
    mockApi('PUT /api/optimization/one/7', ok({ item: { campaignId: '7', accountId: 'a1', orgId: '42', type: 'CPA_GOAL', target: '2.50', maxStepPercent: '15', currency: 'USD', createdBy: 'ann@example.com', enabledAt: 1764223200, updatedAt: 1764223200, lastRun: null } }));
    renderApp('/optimization/a1/42', makeUser());
    const table = await screen.findByTestId('report-table', {}, { timeout: 15_000 });
    await userEvent.click(await within(table).findByRole('button', { name: 'Goal optimization of Brand US' }));
    const form = await screen.findByRole('form', { name: 'Goal optimization of Brand US' });
    await userEvent.click(within(form).getByRole('combobox', { name: 'Optimization' }));
    await userEvent.click(await screen.findByRole('option', { name: 'CPA goal' }));
    expect(within(form).getByText('Moves bids toward the target CPA')).toBeInTheDocument();
    await userEvent.type(within(form).getByRole('textbox', { name: /^Target/ }), '2.50');
    await userEvent.type(within(form).getByRole('textbox', { name: /Largest bid step/ }), '15');
    const before = reportCalls();
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo('PUT /api/optimization/one/7')).toHaveLength(1));
    const call = callsTo('PUT /api/optimization/one/7')[0]!;
    expect(call.url).toBe('/api/optimization/one/7?accountId=a1&orgId=42');
    expect(call.body).toEqual({ type: 'CPA_GOAL', target: '2.50', maxStepPercent: '15', cohortDay: null });
    await waitFor(() => expect(reportCalls()).toBeGreaterThan(before));
  });

  it("keeps a goal's own step when only its target changes", async () => {
    // The cell answers the goal's step: the form starts from it, so saving a new target does
    // not reset a step of 35 % to the default 20 %.
    setup([], { type: 'CPA_GOAL', target: '2.50', currency: 'USD', maxStepPercent: 35 });
    mockApi('PUT /api/optimization/one/7', ok({ item: { campaignId: '7', accountId: 'a1', orgId: '42', type: 'CPA_GOAL', target: '3.00', maxStepPercent: '35', currency: 'USD', createdBy: 'ann@example.com', enabledAt: 1764223200, updatedAt: 1764223200, lastRun: null } }));
    renderApp('/optimization/a1/42', makeUser());
    const table = await screen.findByTestId('report-table', {}, { timeout: 15_000 });
    await userEvent.click(await within(table).findByRole('button', { name: 'Goal optimization of Brand US' }));
    const form = await screen.findByRole('form', { name: 'Goal optimization of Brand US' });
    expect(within(form).getByRole('textbox', { name: /Largest bid step/ })).toHaveValue('35');
    const amount = within(form).getByRole('textbox', { name: /^Target/ });
    await userEvent.clear(amount);
    await userEvent.type(amount, '3.00');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo('PUT /api/optimization/one/7')).toHaveLength(1));
    expect(callsTo('PUT /api/optimization/one/7')[0]!.body).toEqual({ type: 'CPA_GOAL', target: '3.00', maxStepPercent: '35', cohortDay: null });
  });

  it('sets a ROAS goal in percent on the cohort chosen, and says it reads the attribution provider', async () => {
    setup();
    mockApi('PUT /api/optimization/one/7', ok({ item: { campaignId: '7', accountId: 'a1', orgId: '42', type: 'ROAS_GOAL', target: '150', cohortDay: 30, maxStepPercent: '20', currency: 'USD', createdBy: 'ann@example.com', enabledAt: 1764223200, updatedAt: 1764223200, lastRun: null } }));
    renderApp('/optimization/a1/42', makeUser());
    const table = await screen.findByTestId('report-table', {}, { timeout: 15_000 });
    await userEvent.click(await within(table).findByRole('button', { name: 'Goal optimization of Brand US' }));
    const form = await screen.findByRole('form', { name: 'Goal optimization of Brand US' });
    await userEvent.click(within(form).getByRole('combobox', { name: 'Optimization' }));
    await userEvent.click(await screen.findByRole('option', { name: 'ROAS goal' }));
    expect(form).toHaveTextContent('Reads the trials, purchases and revenue your attribution provider sends');
    const cohort = within(form).getByRole('combobox', { name: 'Judged on' });
    expect(cohort).toHaveValue('ROAS D7: revenue of the first 7 days');
    await userEvent.click(cohort);
    await userEvent.click(await screen.findByRole('option', { name: 'ROAS D30: revenue of the first 30 days' }));
    const target = within(form).getByRole('textbox', { name: 'Target ROAS' });
    expect(within(form).getByText('%')).toBeInTheDocument();
    await userEvent.type(target, '150');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo('PUT /api/optimization/one/7')).toHaveLength(1));
    expect(callsTo('PUT /api/optimization/one/7')[0]!.body).toEqual({ type: 'ROAS_GOAL', target: '150', maxStepPercent: null, cohortDay: 30 });
  });

  it('attaches a rule and turns an attached one off for the campaign', async () => {
    setup();
    mockApi('POST /api/rules/rulesCampaigns/many/7', ok({ items: [] }));
    mockApi('PUT /api/rules/rulesCampaigns/toggleRule', ok({ item: storedRule() }));
    renderApp('/optimization/a1/42', makeUser());
    const table = await screen.findByTestId('report-table', {}, { timeout: 15_000 });
    await userEvent.click(await within(table).findByRole('button', { name: 'Rules of Brand US' }));
    const form = await screen.findByRole('form', { name: 'Rules of Brand US' });
    expect(await within(form).findByRole('checkbox', { name: 'Pause wasters' })).toBeChecked();
    await userEvent.click(within(form).getByRole('checkbox', { name: 'Raise winners' }));
    expect(within(form).getByText('The rule itself is off')).toBeInTheDocument();
    await userEvent.click(within(form).getByRole('switch', { name: 'On for this campaign: Pause wasters' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo('PUT /api/rules/rulesCampaigns/toggleRule')).toHaveLength(1));
    expect(callsTo('POST /api/rules/rulesCampaigns/many/7')[0]!.body).toEqual({ rulesIds: ['r1', 'r2'] });
    expect(callsTo('PUT /api/rules/rulesCampaigns/toggleRule')[0]!.body).toEqual({ ruleId: 'r1', campaignId: '7', enabled: false });
  });

  it('offers no goal editor where the plan locks the column (Growth)', async () => {
    setup(['optimizationTypes']);
    renderApp('/optimization/a1/42', makeUser());
    const table = await screen.findByTestId('report-table', {}, { timeout: 15_000 });
    expect(await within(table).findByRole('button', { name: 'Rules of Brand US' })).toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: 'Goal optimization of Brand US' })).not.toBeInTheDocument();
  });

  it('offers no editor to readers', async () => {
    setup();
    renderApp('/optimization/a1/42', makeUser({ permission: 'reader' }));
    const readers = await screen.findByTestId('report-table', {}, { timeout: 15_000 });
    await within(readers).findByText('Pause wasters');
    expect(within(readers).queryByRole('button', { name: 'Rules of Brand US' })).not.toBeInTheDocument();
  });
});
