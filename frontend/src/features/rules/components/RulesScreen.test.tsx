import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { taskTiming } from '@/features/tasks';
import { callsTo, fail, held, mockApi, ok } from '@/test/fetch-mock';
import { makeAccount, makeTask, makeUser, userWithRole } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { storedRule } from '../rule-fixtures';

jest.setTimeout(40_000);

// Task polls every 50 ms instead of the app's 1000 ms: the test waits on the task, not the
// clock. A state between two polls is held on screen (`held`) until the test has seen it.
beforeAll(() => {
  taskTiming.pollMs = 50;
});

const account = makeAccount('a1', 'Main', [{ orgId: '42', displayName: 'Cloud Apps' }]);

const second = () =>
  storedRule({ id: 'r2', name: 'Raise budgets of winners', enabled: false, level: 'CAMPAIGNS', campaignIds: ['1870001'], frequency: { type: 'weekly', weekday: 'MONDAY', hour: 9 }, actions: [{ type: 'changeBudget', by: 'PERCENT', value: '10' }], lastRun: null });

function mockPage(rules: unknown[] = [storedRule(), second()], slack: { configured: boolean; url: string | null } = { configured: false, url: null }) {
  mockApi('GET /api/account/getAll', ok({ items: [account] }));
  mockApi('GET /api/rules/all', ok({ items: rules }));
  mockApi('GET /api/alerts/slack', ok({ item: slack }));
}

const row = (name: string) => screen.getByText(name).closest('tr')!;

describe('/auto-rules: the rules list', () => {
  it('lists the rules of the active campaign group with their conditions in words, level, campaigns, frequency and last run', async () => {
    mockPage();
    renderApp('/auto-rules', makeUser());
    expect(await screen.findByRole('heading', { name: 'Automated Rules' })).toBeInTheDocument();
    await screen.findByText('Pause keywords that spend without installs');
    const first = row('Pause keywords that spend without installs');
    expect(first).toHaveTextContent('Keywords');
    expect(first).toHaveTextContent('Daily at 06:00');
    expect(first).toHaveTextContent('Last 7 days');
    expect(within(first).getByTestId('rule-conditions')).toHaveTextContent('(Spend > $20.00 and Installs = 0) and (Avg CPA > 1.5 × CPA goal or Status Active)');
    expect(first).toHaveTextContent('Done');
    expect(first).toHaveTextContent('12 matched · 11 applied · 0 refused · 1 skipped');
    expect(within(first).getAllByRole('cell')[4]).toHaveTextContent('2');
    expect(within(first).getByRole('switch', { name: /Pause keywords/ })).toBeChecked();
    const other = row('Raise budgets of winners');
    expect(other).toHaveTextContent('Every Monday at 09:00');
    expect(other).toHaveTextContent('Not run yet');
    expect(within(other).getByRole('switch')).not.toBeChecked();
    expect(callsTo('GET /api/rules/all')[0]!.url).toBe('/api/rules/all?accountId=a1&orgId=42');
    expect(document.title).toContain('Automated Rules');
  });

  it("shows an undo as its own entry ('Undo by …', the changes set back), and who pressed Run now (issue 42 item 7)", async () => {
    const undone = storedRule({ lastRun: { id: 'run9', at: 1764222000, status: 'DONE', matched: 53, applied: 53, refused: 0, skipped: 0, trigger: 'UNDO', by: 'ann@example.com', undoOf: 'run8', undoneBy: null } });
    const manual = { ...second(), lastRun: { id: 'run3', at: 1764222000, status: 'DONE', matched: 4, applied: 4, refused: 0, skipped: 0, trigger: 'MANUAL', by: 'bob@example.com', undoOf: null, undoneBy: 'run4' } };
    mockPage([undone, manual]);
    renderApp('/auto-rules', makeUser());
    await screen.findByText('Pause keywords that spend without installs');
    const first = within(row('Pause keywords that spend without installs')).getByTestId('last-run');
    expect(first).toHaveTextContent('Undo by ann@example.com');
    expect(first).toHaveTextContent('53 changes set back');
    expect(first).not.toHaveTextContent('Done');
    expect(first).not.toHaveTextContent('applied');
    const other = within(row('Raise budgets of winners')).getByTestId('last-run');
    expect(other).toHaveTextContent('Run now by bob@example.com');
    expect(other).toHaveTextContent('Undone');
  });

  it('turns a rule off with a PUT of the rule as stored, enabled flipped', async () => {
    mockPage();
    mockApi('PUT /api/rules/user/r1', ok({ item: storedRule({ enabled: false }) }));
    renderApp('/auto-rules', makeUser({ permission: 'writer' }));
    await screen.findByText('Pause keywords that spend without installs');
    await userEvent.click(within(row('Pause keywords that spend without installs')).getByRole('switch'));
    await waitFor(() => expect(callsTo('PUT /api/rules/user/r1')).toHaveLength(1));
    const body = callsTo('PUT /api/rules/user/r1')[0]!.body as Record<string, unknown>;
    const { id: _id, currency: _c, createdBy: _b, createdAt: _ca, updatedAt: _u, lastRun: _l, ...rest } = storedRule();
    expect(body).toEqual({ ...rest, enabled: false });
    await waitFor(() => expect(within(row('Pause keywords that spend without installs')).getByRole('switch')).not.toBeChecked());
  });

  it('deletes a rule after a confirmation', async () => {
    mockPage();
    mockApi('DELETE /api/rules/user/many', ok({ deleted: 1 }));
    renderApp('/auto-rules', makeUser());
    await screen.findByText('Raise budgets of winners');
    await userEvent.click(screen.getByRole('button', { name: 'Actions of Raise budgets of winners' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete rules' });
    expect(dialog).toHaveTextContent('Raise budgets of winners');
    expect(callsTo('DELETE /api/rules/user/many')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(callsTo('DELETE /api/rules/user/many')).toHaveLength(1));
    expect(callsTo('DELETE /api/rules/user/many')[0]!.body).toEqual({ rulesIds: ['r2'] });
  });

  it('deletes the selected rules at once', async () => {
    mockPage();
    mockApi('DELETE /api/rules/user/many', ok({ deleted: 2 }));
    renderApp('/auto-rules', makeUser());
    await screen.findByText('Raise budgets of winners');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select all rules' }));
    const bar = screen.getByTestId('bulk-bar');
    expect(bar).toHaveTextContent('2 rules selected');
    await userEvent.click(within(bar).getByRole('button', { name: 'Delete selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete rules' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(callsTo('DELETE /api/rules/user/many')).toHaveLength(1));
    expect(callsTo('DELETE /api/rules/user/many')[0]!.body).toEqual({ rulesIds: ['r1', 'r2'] });
  });

  it('runs a rule now and follows its task to the end', async () => {
    mockPage();
    mockApi('POST /api/rules/user/r1/run', ok({ id: 't9' }));
    const finished = held(ok({ item: makeTask({ id: 't9', kind: 'run-rule', finish: true, percent: 100 }) }));
    mockApi('GET /api/tasks/t9', ok({ item: makeTask({ id: 't9', kind: 'run-rule', finish: false }) }), finished.answer);
    renderApp('/auto-rules', makeUser());
    await screen.findByText('Pause keywords that spend without installs');
    await userEvent.click(screen.getByRole('button', { name: 'Actions of Pause keywords that spend without installs' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Run now' }));
    await waitFor(() => expect(callsTo('POST /api/rules/user/r1/run')).toHaveLength(1));
    expect(await screen.findByText('Running…')).toBeInTheDocument();
    finished.release();
    expect(await screen.findByText('Pause keywords that spend without installs has run')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Running…')).not.toBeInTheDocument());
    // The list is asked again for the new last run.
    await waitFor(() => expect(callsTo('GET /api/rules/all').length).toBeGreaterThanOrEqual(2));
  });

  it('shows the call to create the first rule when there is none', async () => {
    mockPage([]);
    const { location } = renderApp('/auto-rules', makeUser());
    expect(await screen.findByRole('heading', { name: 'No rules yet' })).toBeInTheDocument();
    const links = screen.getAllByRole('link', { name: 'Create rule' });
    await userEvent.click(links[links.length - 1]!);
    await waitFor(() => expect(location()).toBe('/auto-rules/new'));
  });

  // The sidebar entry (shown to editors, hidden from readers) is checked in app/AppFrame.test.tsx.
  it('sends readers to the restricted page', async () => {
    mockApi('GET /api/account/getAll', ok({ items: [account] }));
    const { location } = renderApp('/auto-rules', userWithRole('reader'));
    await waitFor(() => expect(location()).toBe('/restricted'));
    expect(callsTo('GET /api/rules/all')).toHaveLength(0);
  });

  it('shows a failure to load the rules', async () => {
    mockApi('GET /api/account/getAll', ok({ items: [account] }));
    mockApi('GET /api/rules/all', fail(500, 'Error. Try again later'));
    mockApi('GET /api/alerts/slack', ok({ item: { configured: false, url: null } }));
    renderApp('/auto-rules', makeUser());
    expect(await screen.findByRole('alert')).toHaveTextContent('Error. Try again later');
  });
});

describe('/auto-rules: the Slack webhook', () => {
  it('shows the masked address to owners and clears it', async () => {
    mockPage(undefined, { configured: true, url: 'https://hooks.slack.com/…/XXXX' });
    mockApi('PUT /api/alerts/slack', ok({ item: { configured: true, url: 'https://hooks.slack.com/…' } }));
    renderApp('/auto-rules', makeUser({ permission: 'admin' }));
    const section = await screen.findByRole('region', { name: 'Alerts: Slack incoming webhook' });
    expect(await within(section).findByTestId('slack-url')).toHaveTextContent('https://hooks.slack.com/…/XXXX');
    await userEvent.click(within(section).getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(callsTo('PUT /api/alerts/slack')).toHaveLength(1));
    expect(callsTo('PUT /api/alerts/slack')[0]!.body).toEqual({ url: null });
  });

  it('saves a new address, refusing one that is not https', async () => {
    mockPage();
    mockApi('PUT /api/alerts/slack', ok({ item: { configured: true, url: 'https://hooks.slack.com/…' } }));
    renderApp('/auto-rules', makeUser());
    const section = await screen.findByRole('region', { name: 'Alerts: Slack incoming webhook' });
    const input = within(section).getByLabelText('Webhook URL');
    await userEvent.type(input, 'http://hooks.slack.com/services/T/B/X');
    await userEvent.click(within(section).getByRole('button', { name: 'Save' }));
    expect(await within(section).findByText('Enter an https:// address')).toBeInTheDocument();
    expect(callsTo('PUT /api/alerts/slack')).toHaveLength(0);
    await userEvent.clear(input);
    await userEvent.type(input, 'https://hooks.slack.com/services/T/B/X');
    await userEvent.click(within(section).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo('PUT /api/alerts/slack')).toHaveLength(1));
    expect(callsTo('PUT /api/alerts/slack')[0]!.body).toEqual({ url: 'https://hooks.slack.com/services/T/B/X' });
  });

  it('is not offered to writers', async () => {
    mockPage();
    renderApp('/auto-rules', makeUser({ permission: 'writer' }));
    await screen.findByText('Raise budgets of winners');
    expect(screen.queryByRole('region', { name: 'Alerts: Slack incoming webhook' })).not.toBeInTheDocument();
    expect(callsTo('GET /api/alerts/slack')).toHaveLength(0);
  });
});
