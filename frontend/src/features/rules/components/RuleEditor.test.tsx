import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { callsTo, fail, mockApi, ok } from '@/test/fetch-mock';
import { makeAccount, makeCampaignListItem, makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { storedRule } from '../rule-fixtures';

// The editor is a large form; typing and picking through it takes a while in jsdom.
jest.setTimeout(120_000);

const account = makeAccount('a1', 'Main', [{ orgId: '42', displayName: 'Cloud Apps' }]);
const CAMPAIGNS = [makeCampaignListItem('1870001', 'Brand US'), makeCampaignListItem('1870002', 'Generic')];

/** The body the contract's sample rule is sent as (docs/api/rules.md "A rule"). */
const SAMPLE_BODY = (() => {
  const { id: _id, currency: _c, createdBy: _b, createdAt: _ca, updatedAt: _u, lastRun: _l, ...body } = storedRule();
  return body;
})();

function mockEditor(rules: unknown[] = [storedRule()]) {
  mockApi('GET /api/account/getAll', ok({ items: [account] }));
  mockApi('GET /api/rules/all', ok({ items: rules }));
  mockApi('GET /api/asa/campaigns/list', ok({ items: CAMPAIGNS }));
  mockApi('GET /api/alerts/slack', ok({ item: { configured: false, url: null } }));
}

/** The input labelled `label` (Mantine's selects also label their option lists; radios are not inputs to type in). */
function input(label: string | RegExp, scope: HTMLElement = document.body): HTMLElement {
  const found = within(scope)
    .getAllByLabelText(label)
    .find((el) => el.tagName === 'INPUT' && !['radio', 'hidden', 'checkbox'].includes(el.getAttribute('type') ?? ''));
  if (!found) throw new Error(`no input labelled ${String(label)}`);
  return found;
}

/** Opens the select labelled `label` (within `scope`) and picks `option`. */
async function pick(label: string | RegExp, option: string, scope: HTMLElement = document.body) {
  await userEvent.click(input(label, scope));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

const group = (n: number) => screen.getByRole('region', { name: `Group ${n}` });

describe('/auto-rules/new: the rule form', () => {
  it("builds the contract's sample rule through the form and sends its exact body", async () => {
    mockEditor([]);
    mockApi('PUT /api/rules/user', ok({ item: storedRule() }));
    const { location } = renderApp('/auto-rules/new', makeUser());
    await userEvent.type(await screen.findByLabelText('Rule name'), 'Pause keywords that spend without installs');
    await pick('Campaigns', 'Brand US');
    await pick('Campaigns', 'Generic');

    // Group 1: spend > 20 AND installs = 0.
    await userEvent.type(within(group(1)).getByLabelText('Condition 1: Value'), '20');
    await userEvent.click(within(group(1)).getByRole('button', { name: 'Add condition' }));
    await pick('Condition 2: Metric', 'Installs', group(1));
    await pick('Condition 2: Operator', '=', group(1));
    await userEvent.type(within(group(1)).getByLabelText('Condition 2: Value'), '0');

    // Group 2 (OR): avgCPA > 1.5 × cpaGoal, status ACTIVE.
    await userEvent.click(screen.getByRole('button', { name: 'Add group' }));
    await userEvent.click(within(group(2)).getByRole('radio', { name: 'Any (OR)' }));
    await pick('Condition 1: Type', 'Compare to', group(2));
    await pick('Condition 1: Metric', 'Avg CPA', group(2));
    const coefficient = within(group(2)).getByLabelText('Condition 1: Coefficient');
    await userEvent.clear(coefficient);
    await userEvent.type(coefficient, '1.5');
    expect(input('Condition 1: Compared with', group(2))).toHaveValue('CPA goal');
    await userEvent.click(within(group(2)).getByRole('button', { name: 'Add condition' }));
    await pick('Condition 2: Type', 'Status', group(2));

    // Actions: pause, and an alert by email and Slack.
    await userEvent.click(screen.getByRole('button', { name: 'Add action' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Pause' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add action' }));
    expect(screen.queryByRole('menuitem', { name: 'Set daily budget' })).not.toBeInTheDocument();
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Send an alert' }));
    await pick('Channels', 'Slack');

    // Guardrails.
    await userEvent.click(screen.getByRole('button', { name: 'Guardrails' }));
    await userEvent.type(screen.getByLabelText('Minimum bid'), '0.10');
    await userEvent.type(screen.getByLabelText('Maximum bid'), '5.00');
    await userEvent.type(screen.getByLabelText('Largest change per run'), '50');
    await userEvent.type(screen.getByLabelText(/Most entities per run/), '500');
    await userEvent.click(screen.getByRole('button', { name: 'Add minimum' }));

    await userEvent.click(screen.getByRole('button', { name: 'Save rule' }));
    await waitFor(() => expect(callsTo('PUT /api/rules/user')).toHaveLength(1));
    expect(callsTo('PUT /api/rules/user')[0]!.body).toEqual(SAMPLE_BODY);
    await waitFor(() => expect(location()).toBe('/auto-rules'));
  });

  it('checks the rule before sending anything', async () => {
    mockEditor([]);
    renderApp('/auto-rules/new', makeUser());
    await userEvent.click(await screen.findByRole('button', { name: 'Save rule' }));
    expect(await screen.findByText('Enter a rule name')).toBeInTheDocument();
    expect(within(group(1)).getByLabelText('Condition 1: Value')).toHaveAccessibleDescription('Please complete this field to continue');
    expect(screen.getByText('Add at least one action')).toBeInTheDocument();
    expect(callsTo('PUT /api/rules/user')).toHaveLength(0);
  });

  it('offers the actions of the level only and drops the others when the level changes', async () => {
    mockEditor([]);
    renderApp('/auto-rules/new', makeUser());
    await userEvent.click(await screen.findByRole('button', { name: 'Add action' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Change bid' }));
    expect(input('Change by')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('radio', { name: 'Campaigns' }));
    expect(screen.queryAllByLabelText('Change by')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Add action' }));
    expect(await screen.findByRole('menuitem', { name: 'Set daily budget' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Set bid' })).not.toBeInTheDocument();
  });
});

describe('/auto-rules/{id}/edit', () => {
  it('sends a saved rule back unchanged, ratios as fractions (shown as percentages)', async () => {
    const rule = storedRule({
      conditions: { operator: 'OR', groups: [{ operator: 'AND', conditions: [{ type: 'metric', metric: 'ttr', operator: 'LESS_THAN', value: '0.05' }] }] },
    });
    mockEditor([rule]);
    mockApi('PUT /api/rules/user/r1', ok({ item: rule }));
    renderApp('/auto-rules/r1/edit', makeUser());
    expect(await screen.findByLabelText('Rule name')).toHaveValue('Pause keywords that spend without installs');
    expect(within(group(1)).getByLabelText('Condition 1: Value')).toHaveValue('5');
    await userEvent.click(screen.getByRole('button', { name: 'Save rule' }));
    await waitFor(() => expect(callsTo('PUT /api/rules/user/r1')).toHaveLength(1));
    expect(callsTo('PUT /api/rules/user/r1')[0]!.body).toEqual({ ...SAMPLE_BODY, conditions: rule.conditions });
  });

  it("shows the server's field errors on their fields", async () => {
    mockEditor();
    mockApi(
      'PUT /api/rules/user/r1',
      fail(400, 'The rule is invalid', [
        { field: 'conditions.groups.1.conditions.0.coefficient', message: 'The coefficient is too large' },
        { field: 'guardrails.maxBid', message: 'Above the largest bid Apple takes' },
        { field: 'campaignIds.1', message: 'Not a campaign of this campaign group' },
      ]),
    );
    renderApp('/auto-rules/r1/edit', makeUser());
    await screen.findByLabelText('Rule name');
    await userEvent.click(screen.getByRole('button', { name: 'Save rule' }));
    await waitFor(() => expect(within(group(2)).getByLabelText('Condition 1: Coefficient')).toHaveAccessibleDescription('The coefficient is too large'));
    // The guardrails open to show theirs.
    expect(await screen.findByLabelText('Maximum bid')).toHaveAccessibleDescription('Above the largest bid Apple takes');
    expect(within(group(1)).getByLabelText('Condition 1: Value')).not.toHaveAccessibleDescription('The coefficient is too large');
    // `campaignIds.1`, one of the campaigns chosen, shows on the campaigns picker.
    expect(input('Campaigns')).toHaveAccessibleDescription(/Not a campaign of this campaign group/);
  });

  it('previews the rule as it stands, entity by entity', async () => {
    mockEditor();
    mockApi(
      'POST /api/rules/preview',
      ok({
        item: {
          ruleName: 'Pause keywords that spend without installs',
          status: 'PREVIEW',
          trigger: 'MANUAL',
          window: { startDate: '2026-11-20', endDate: '2026-11-26' },
          cohorts: [],
          matched: 2,
          applied: 0,
          refused: 0,
          skipped: 0,
          items: [
            { level: 'KEYWORD', entityId: '9870001', name: 'photo editor', campaignId: '1870001', adGroupId: '2870001', values: { localSpend: '23.10', installs: '0', ttr: '0.0512' }, action: 'pause', field: 'status', oldValue: 'ACTIVE', newValue: 'PAUSED', result: 'PLANNED', message: null },
            // The alert action makes no item (one alert per run).
            { level: 'KEYWORD', entityId: '9870002', name: 'collage', campaignId: '1870002', adGroupId: '2870002', values: { localSpend: '31', installs: '0', ttr: null }, action: 'pause', field: 'status', oldValue: 'PAUSED', newValue: 'PAUSED', result: 'SKIPPED', message: 'Already paused' },
          ],
        },
      }),
    );
    renderApp('/auto-rules/r1/edit', makeUser());
    await screen.findByLabelText('Rule name');
    await userEvent.click(screen.getByRole('button', { name: 'Preview' }));
    const panel = await screen.findByRole('region', { name: 'Preview: what the rule would change now' });
    expect(callsTo('POST /api/rules/preview')[0]!.body).toEqual({ rule: SAMPLE_BODY });
    expect(within(panel).getByTestId('preview-summary')).toHaveTextContent('1 keyword would change · 2 matched · 20/11/2026 – 26/11/2026');
    const rows = within(panel).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toHaveTextContent('photo editor');
    expect(rows[1]).toHaveTextContent('Brand US / 2870001');
    expect(rows[1]).toHaveTextContent('$23.10');
    expect(rows[1]).toHaveTextContent('5.12%');
    expect(rows[1]).toHaveTextContent('Active → Paused');
    expect(rows[1]).toHaveTextContent('Planned');
    expect(rows[2]).toHaveTextContent('collage');
    expect(rows[2]).toHaveTextContent('Already paused');
    expect(callsTo('PUT /api/rules/user/r1')).toHaveLength(0);
  });

  it('backtests the rule over the days asked', async () => {
    mockEditor();
    mockApi(
      'POST /api/rules/backtest',
      ok({
        item: {
          points: [
            { at: '2026-11-26T06:00:00Z', window: { startDate: '2026-11-19', endDate: '2026-11-25' }, matched: 4, changes: 3 },
            { at: '2026-11-27T06:00:00Z', window: { startDate: '2026-11-20', endDate: '2026-11-26' }, matched: 2, changes: 1 },
          ],
          // Flat, as the server sends them (the document's BacktestEntity).
          entities: [{ level: 'KEYWORD', entityId: '9870001', name: 'photo editor', campaignId: '1870001', timesChanged: 2, metrics: { localSpend: '40.5', installs: '0', ttr: null } }],
          note: 'Each day is evaluated on the data as synced: the effect of earlier changes is not simulated.',
        },
      }),
    );
    renderApp('/auto-rules/r1/edit', makeUser());
    await screen.findByLabelText('Rule name');
    const days = screen.getByLabelText('Days back');
    await userEvent.clear(days);
    await userEvent.type(days, '14');
    await userEvent.click(screen.getByRole('button', { name: 'Backtest' }));
    const panel = await screen.findByRole('region', { name: 'Backtest: what the rule would have changed' });
    expect(callsTo('POST /api/rules/backtest')[0]!.body).toEqual({ rule: SAMPLE_BODY, days: 14 });
    expect(within(panel).getByTestId('backtest-summary')).toHaveTextContent('4 changes over 2 scheduled runs');
    const points = within(panel).getByRole('table', { name: 'Scheduled runs' });
    expect(within(points).getAllByRole('row')).toHaveLength(3);
    expect(within(points).getAllByRole('row')[1]).toHaveTextContent('19/11/2026 – 25/11/2026');
    const entities = within(panel).getByRole('table', { name: 'Entities it would have changed' });
    const entity = within(entities).getAllByRole('row')[1]!;
    expect(entity).toHaveTextContent('photo editor');
    expect(entity).toHaveTextContent('Keyword');
    expect(entity).toHaveTextContent('Brand US');
    expect(entity).toHaveTextContent('$40.50');
    expect(within(panel).getByTestId('backtest-note')).toHaveTextContent('the effect of earlier changes is not simulated');
  });
});
