import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { callsTo, fail, mockApi, ok } from '@/test/fetch-mock';
import { makeAccount, makeCampaignListItem, makeTask, makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { storedRule } from '../rule-fixtures';

jest.setTimeout(40_000);

const account = makeAccount('a1', 'Main', [{ orgId: '42', displayName: 'Cloud Apps' }]);

function run(overrides: Record<string, unknown> = {}) {
  return {
    id: 'run1',
    ruleId: 'r1',
    ruleName: 'Pause keywords that spend without installs',
    trigger: 'SCHEDULE',
    period: '2026-11-27T06:00:00Z',
    status: 'DONE',
    reason: null,
    window: { startDate: '2026-11-20', endDate: '2026-11-26' },
    newestCompleteDay: '2026-11-26',
    cohorts: [],
    startedAt: 1764223200,
    finishedAt: 1764223204,
    matched: 12,
    applied: 11,
    refused: 0,
    skipped: 1,
    undoOf: null,
    undoneBy: null,
    ...overrides,
  };
}

const ITEMS = [
  {
    level: 'KEYWORD',
    entityId: '9870001',
    name: 'photo editor',
    campaignId: '1870001',
    campaignName: 'Brand US (renamed)',
    adGroupId: '2870001',
    adGroupName: 'Exact terms',
    values: { localSpend: '23.10', installs: '0', taps: '31' },
    action: 'pause',
    field: 'status',
    oldValue: 'ACTIVE',
    newValue: 'PAUSED',
    result: 'APPLIED',
    message: null,
  },
  {
    level: 'KEYWORD',
    entityId: '9870002',
    name: 'collage maker',
    campaignId: '1870001',
    adGroupId: '2870001',
    values: { localSpend: '25', installs: '0', taps: '12' },
    action: 'changeBid',
    field: 'bid',
    oldValue: '1.00',
    newValue: '1.10',
    result: 'SKIPPED',
    message: 'Changed since the rule evaluated it',
  },
];

function mockHistory() {
  mockApi('GET /api/account/getAll', ok({ items: [account] }));
  mockApi('GET /api/rules/all', ok({ items: [storedRule()] }));
  mockApi('GET /api/asa/campaigns/list', ok({ items: [makeCampaignListItem('1870001', 'Brand US')] }));
  mockApi(
    'GET /api/rules/user/r1/runs',
    ok({
      items: [
        run(),
        run({ id: 'run0', trigger: 'MANUAL', status: 'SKIPPED', reason: 'Metrics for 2026-11-25 are not synced yet', matched: 0, applied: 0, skipped: 0 }),
        run({ id: 'runU', trigger: 'SCHEDULE', undoneBy: 'run9' }),
      ],
      total: 3,
    }),
  );
}

const runRow = (id: string) => screen.getByTestId(`run-${id}`);

describe('/auto-rules/{id}/runs: run history', () => {
  it('lists the runs with trigger, status, window and counts, Undo only where something can be restored', async () => {
    mockHistory();
    renderApp('/auto-rules/r1/runs', makeUser());
    expect(await screen.findByText('Pause keywords that spend without installs')).toBeInTheDocument();
    await screen.findByTestId('run-run1');
    expect(callsTo('GET /api/rules/user/r1/runs')[0]!.url).toBe('/api/rules/user/r1/runs?page=1&pageSize=20');
    expect(runRow('run1')).toHaveTextContent('Scheduled');
    expect(runRow('run1')).toHaveTextContent('Done');
    expect(runRow('run1')).toHaveTextContent('20/11/2026 – 26/11/2026');
    expect(runRow('run1')).toHaveTextContent('12 matched · 11 applied · 0 refused · 1 skipped');
    expect(within(runRow('run1')).getByRole('button', { name: 'Undo' })).toBeEnabled();
    expect(runRow('run0')).toHaveTextContent('Run now');
    expect(runRow('run0')).toHaveTextContent('Metrics for 2026-11-25 are not synced yet');
    expect(within(runRow('run0')).getByRole('button', { name: 'Undo' })).toBeDisabled();
    expect(runRow('runU')).toHaveTextContent('Undone');
    expect(within(runRow('runU')).getByRole('button', { name: 'Undo' })).toBeDisabled();
  });

  it("shows a run's entities: the values that matched, old → new, result and message", async () => {
    mockHistory();
    mockApi('GET /api/rules/runs/run1', ok({ item: { ...run(), items: ITEMS } }));
    renderApp('/auto-rules/r1/runs', makeUser());
    await screen.findByTestId('run-run1');
    await userEvent.click(within(runRow('run1')).getByRole('button', { name: 'Details' }));
    const drawer = await screen.findByRole('dialog', { name: 'Run details' });
    const table = await within(drawer).findByRole('table', { name: 'Entities of the run' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'Level', 'Campaign / ad group', 'Spend', 'Installs', 'Taps', 'Action', 'Old → new', 'Result']);
    expect(rows[1]).toHaveTextContent('photo editor');
    // The server's names; without them (older runs), the picker's campaign name and the id.
    expect(rows[1]).toHaveTextContent('Brand US (renamed) / Exact terms');
    expect(rows[2]).toHaveTextContent('Brand US / 2870001');
    expect(rows[1]).toHaveTextContent('$23.10');
    expect(rows[1]).toHaveTextContent('Active → Paused');
    expect(rows[1]).toHaveTextContent('Applied');
    expect(rows[2]).toHaveTextContent('$1.00 → $1.10');
    expect(rows[2]).toHaveTextContent('Skipped');
    expect(rows[2]).toHaveTextContent('Changed since the rule evaluated it');
    expect(within(drawer).getByText('26/11/2026')).toBeInTheDocument();
    // A rule on no Cohort metric lists no cohorts.
    expect(within(drawer).queryByTestId('run-cohorts')).not.toBeInTheDocument();
  });

  it('says which installs each Cohort metric was judged on, and when none was old enough', async () => {
    mockHistory();
    const cohorts = [
      { metric: 'roasD7', ageDays: 7, from: '2026-10-28', through: '2026-11-19' },
      { metric: 'revenueD30', ageDays: 30, from: '2026-10-28', through: '2026-10-26' },
    ];
    mockApi('GET /api/rules/runs/run1', ok({ item: { ...run({ cohorts }), items: ITEMS } }));
    renderApp('/auto-rules/r1/runs', makeUser());
    await screen.findByTestId('run-run1');
    await userEvent.click(within(runRow('run1')).getByRole('button', { name: 'Details' }));
    const drawer = await screen.findByRole('dialog', { name: 'Run details' });
    const listed = await within(drawer).findByTestId('run-cohorts');
    expect(listed).toHaveTextContent('Cohorts judged');
    expect(listed).toHaveTextContent('ROAS D7: installs of 28/10/2026 – 19/11/2026');
    expect(listed).toHaveTextContent('Revenue D30: no install of the window is 30 days old yet, so nothing matched on it');
  });

  it('undoes a run only after a confirmation, then follows the undo task', async () => {
    mockHistory();
    mockApi('POST /api/rules/runs/run1/undo', ok({ id: 't5' }));
    mockApi('GET /api/tasks/t5', ok({ item: makeTask({ id: 't5', kind: 'undo-rule-run', finish: true, percent: 100 }) }));
    renderApp('/auto-rules/r1/runs', makeUser());
    await screen.findByTestId('run-run1');
    await userEvent.click(within(runRow('run1')).getByRole('button', { name: 'Undo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Undo this run' });
    expect(dialog).toHaveTextContent('Set the 11 changes of this run back to their old values?');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(callsTo('POST /api/rules/runs/run1/undo')).toHaveLength(0);

    await userEvent.click(within(runRow('run1')).getByRole('button', { name: 'Undo' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Undo this run' })).getByRole('button', { name: 'Undo run' }));
    await waitFor(() => expect(callsTo('POST /api/rules/runs/run1/undo')).toHaveLength(1));
    expect(await screen.findByText('The run is undone')).toBeInTheDocument();
    // The runs are asked again for the undo's outcome.
    await waitFor(() => expect(callsTo('GET /api/rules/user/r1/runs').length).toBeGreaterThanOrEqual(2));
  });

  it("says why an undo was refused (the server's 400)", async () => {
    mockHistory();
    mockApi('POST /api/rules/runs/run1/undo', fail(400, 'The run changed nothing'));
    renderApp('/auto-rules/r1/runs', makeUser());
    await screen.findByTestId('run-run1');
    await userEvent.click(within(runRow('run1')).getByRole('button', { name: 'Undo' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Undo this run' })).getByRole('button', { name: 'Undo run' }));
    expect(await screen.findByText('The run changed nothing')).toBeInTheDocument();
  });
});
