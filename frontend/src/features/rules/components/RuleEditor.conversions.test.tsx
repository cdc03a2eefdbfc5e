/**
 * The rule editor on the Conversions and Cohort metrics of the report catalog: where the
 * pickers list them, how their values are typed and sent, the Cohort metrics' window, the
 * pro_limited lock, and the preview naming them.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { callsTo, mockApi, ok } from '@/test/fetch-mock';
import { makeAccount, makeCampaignListItem, makePlanAnswer, makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { storedRule } from '../rule-fixtures';

jest.setTimeout(120_000);

const account = makeAccount('a1', 'Main', [{ orgId: '42', displayName: 'Cloud Apps' }]);

function mockEditor(rules: unknown[] = []) {
  mockApi('GET /api/account/getAll', ok({ items: [account] }));
  mockApi('GET /api/rules/all', ok({ items: rules }));
  mockApi('GET /api/asa/campaigns/list', ok({ items: [makeCampaignListItem('1870001', 'Brand US')] }));
  mockApi('GET /api/alerts/slack', ok({ item: { configured: false, url: null } }));
}

function input(label: string | RegExp, scope: HTMLElement = document.body): HTMLElement {
  const found = within(scope)
    .getAllByLabelText(label)
    .find((el) => el.tagName === 'INPUT' && !['radio', 'hidden', 'checkbox'].includes(el.getAttribute('type') ?? ''));
  if (!found) throw new Error(`no input labelled ${String(label)}`);
  return found;
}

async function open(label: string, scope: HTMLElement = document.body) {
  await userEvent.click(input(label, scope));
  return screen.findByRole('listbox');
}

/** The headings of an open picker, in order. */
const headings = (listbox: HTMLElement) => Array.from(listbox.querySelectorAll('.mantine-Select-groupLabel, [class*="groupLabel"]')).map((el) => el.textContent);

const group = (n: number) => screen.getByRole('region', { name: `Group ${n}` });

const ROAS_RULE = storedRule({
  conditions: { operator: 'AND', groups: [{ operator: 'AND', conditions: [{ type: 'metric', metric: 'roas', operator: 'LESS_THAN', value: '0.8' }] }] },
  guardrails: { minBid: null, maxBid: null, minBudget: null, maxBudget: null, maxChangePercent: null, maxEntities: null, minData: [{ metric: 'trackedInstalls', value: '5' }] },
});

describe('rules on what installs earn', () => {
  it('lists the Conversions and Cohort metrics under their headings, and sends ROAS typed as a percentage as a fraction', async () => {
    mockEditor();
    mockApi('PUT /api/rules/user', ok({ item: ROAS_RULE }));
    renderApp('/auto-rules/new', makeUser());
    await userEvent.type(await screen.findByLabelText('Rule name'), 'Lower bids where ROAS is low');
    const listbox = await open('Condition 1: Metric', group(1));
    expect(headings(listbox)).toEqual(['Metrics', 'Conversions', 'Cohort']);
    expect(within(listbox).getByRole('option', { name: 'Tracked installs' })).toBeInTheDocument();
    expect(within(listbox).getByRole('option', { name: 'Cost per trial' })).toBeInTheDocument();
    expect(within(listbox).getByRole('option', { name: 'Revenue D7' })).toBeInTheDocument();
    await userEvent.click(within(listbox).getByRole('option', { name: 'ROAS' }));
    await userEvent.click(within(await open('Condition 1: Operator', group(1))).getByRole('option', { name: '<' }));
    const value = within(group(1)).getByLabelText('Condition 1: Value');
    expect(within(group(1)).getByText('%')).toBeInTheDocument();
    await userEvent.type(value, '80');
    await userEvent.click(screen.getByRole('button', { name: 'Add action' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Pause' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save rule' }));
    await waitFor(() => expect(callsTo('PUT /api/rules/user')).toHaveLength(1));
    const body = callsTo('PUT /api/rules/user')[0]!.body as { conditions: unknown };
    expect(body.conditions).toEqual({ operator: 'AND', groups: [{ operator: 'AND', conditions: [{ type: 'metric', metric: 'roas', operator: 'LESS_THAN', value: '0.8' }] }] });
  });

  it('says how old a Cohort metric’s installs must be, and refuses a window that starts too late', async () => {
    mockEditor();
    renderApp('/auto-rules/new', makeUser());
    await userEvent.type(await screen.findByLabelText('Rule name'), 'Revenue D7');
    await userEvent.click(within(await open('Condition 1: Metric', group(1))).getByRole('option', { name: 'Revenue D7' }));
    const metric = input('Condition 1: Metric', group(1));
    expect(metric).toHaveAccessibleDescription('Judged on installs at least 7 days old');
    // Money in the campaign group's currency.
    expect(within(group(1)).getByText('USD')).toBeInTheDocument();
    await userEvent.type(within(group(1)).getByLabelText('Condition 1: Value'), '2');
    await userEvent.click(screen.getByRole('button', { name: 'Save rule' }));
    await waitFor(() => expect(metric).toHaveAccessibleDescription(/Revenue D7 is judged on installs at least 7 days old: choose a window that starts 8 or more days ago/));
    expect(callsTo('PUT /api/rules/user')).toHaveLength(0);
  });

  it('offers no conversions at search terms, and tracked installs as minimum data elsewhere', async () => {
    mockEditor();
    renderApp('/auto-rules/new', makeUser());
    await screen.findByLabelText('Rule name');
    await userEvent.click(screen.getByRole('button', { name: 'Guardrails' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add minimum' }));
    let listbox = await open('Minimum data 1: metric');
    expect(headings(listbox)).toEqual(['Metrics', 'Conversions']);
    expect(within(listbox).getByRole('option', { name: 'Trials' })).toBeInTheDocument();
    expect(within(listbox).queryByRole('option', { name: 'Revenue' })).not.toBeInTheDocument();
    await userEvent.keyboard('{Escape}');

    await userEvent.click(screen.getByRole('radio', { name: 'Search terms' }));
    listbox = await open('Condition 1: Metric', group(1));
    expect(headings(listbox)).toEqual(['Metrics']);
    expect(within(listbox).queryByRole('option', { name: 'ROAS' })).not.toBeInTheDocument();
  });

  it('shows them disabled with the plan’s message on pro_limited', async () => {
    mockEditor();
    mockApi('GET /api/plan/current', ok(makePlanAnswer({ plan: 'pro_limited' })));
    renderApp('/auto-rules/new', makeUser());
    await screen.findByLabelText('Rule name');
    await waitFor(() => expect(callsTo('GET /api/plan/current').length).toBeGreaterThan(0));
    const listbox = await open('Condition 1: Metric', group(1));
    await waitFor(() => expect(within(listbox).getAllByTestId('pro-lock-notice')).toHaveLength(2));
    expect(within(listbox).getAllByTestId('pro-lock-notice')[0]).toHaveTextContent('Upgrade to Pro to track events from your MMP.');
    for (const option of within(listbox).getAllByRole('option', { name: /ROAS|Revenue D7|Tracked installs/ })) expect(option).toHaveAttribute('aria-disabled', 'true');
    expect(within(listbox).getByRole('option', { name: 'Installs' })).not.toHaveAttribute('aria-disabled', 'true');
  });

  it('edits a stored ROAS rule as a percentage and previews it with the metrics named', async () => {
    mockEditor([ROAS_RULE]);
    mockApi(
      'POST /api/rules/preview',
      ok({
        item: {
          ruleName: ROAS_RULE.name,
          status: 'PREVIEW',
          trigger: 'MANUAL',
          window: { startDate: '2026-11-20', endDate: '2026-11-26' },
          cohorts: [],
          matched: 1,
          applied: 0,
          refused: 0,
          skipped: 0,
          items: [
            { level: 'KEYWORD', entityId: '9870001', name: 'photo editor', campaignId: '1870001', adGroupId: '2870001', values: { localSpend: '40', roas: '0.625', trackedInstalls: '12' }, action: 'pause', field: 'status', oldValue: 'ACTIVE', newValue: 'PAUSED', result: 'PLANNED', message: null },
          ],
        },
      }),
    );
    renderApp('/auto-rules/r1/edit', makeUser());
    expect(await screen.findByLabelText('Rule name')).toHaveValue(ROAS_RULE.name);
    expect(input('Condition 1: Metric', group(1))).toHaveValue('ROAS');
    expect(within(group(1)).getByLabelText('Condition 1: Value')).toHaveValue('80');
    await userEvent.click(screen.getByRole('button', { name: 'Preview' }));
    const panel = await screen.findByRole('region', { name: 'Preview: what the rule would change now' });
    const [header, row] = within(panel).getAllByRole('row');
    expect(header).toHaveTextContent('ROAS');
    expect(header).toHaveTextContent('Tracked installs');
    expect(row).toHaveTextContent('62.5%');
    expect(row).toHaveTextContent('12');
  });

  it('previews a rule on ROAS D7 with the install days each Cohort metric was judged on', async () => {
    const rule = storedRule({
      conditions: {
        operator: 'AND',
        groups: [{ operator: 'AND', conditions: [
          { type: 'metric', metric: 'roasD7', operator: 'LESS_THAN', value: '0.5' },
          { type: 'compare', metric: 'revenueD30', operator: 'LESS_THAN', other: 'localSpend', coefficient: '1' },
        ] }],
      },
      window: { type: 'between', fromDaysAgo: 31, toDaysAgo: 1 },
    });
    mockEditor([rule]);
    mockApi(
      'POST /api/rules/preview',
      ok({
        item: {
          ruleName: rule.name,
          status: 'PREVIEW',
          trigger: 'MANUAL',
          window: { startDate: '2026-11-02', endDate: '2026-12-02' },
          cohorts: [
            { metric: 'roasD7', ageDays: 7, from: '2026-11-02', through: '2026-11-25' },
            { metric: 'revenueD30', ageDays: 30, from: '2026-11-02', through: '2026-11-02' },
          ],
          matched: 0,
          applied: 0,
          refused: 0,
          skipped: 0,
          items: [],
        },
      }),
    );
    renderApp('/auto-rules/r1/edit', makeUser());
    expect(await screen.findByLabelText('Rule name')).toHaveValue(rule.name);
    expect(input('Condition 1: Metric', group(1))).toHaveValue('ROAS D7');
    expect(within(group(1)).getByLabelText('Condition 1: Value')).toHaveValue('50');
    await userEvent.click(screen.getByRole('button', { name: 'Preview' }));
    const cohorts = await screen.findByTestId('run-cohorts');
    expect(callsTo('POST /api/rules/preview')[0]!.body).toMatchObject({ rule: { conditions: rule.conditions } });
    expect(within(cohorts).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'ROAS D7: installs of 02/11/2026 – 25/11/2026',
      'Revenue D30: installs of 02/11/2026 – 02/11/2026',
    ]);
  });
});
