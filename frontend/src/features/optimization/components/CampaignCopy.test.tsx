/**
 * The campaigns table's Duplicate (the creation feature's modal, opened from the bulk-edit
 * bar): the copy sent, its task followed, the table read again; the limit; readers.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { taskTiming } from '@/features/tasks';
import { callsTo, fail, held, mockApi, ok } from '@/test/fetch-mock';
import { creationDetails, makeAccount, makePurchase, makeTask, makeUser, makeReport } from '@/test/fixtures';
import { renderApp } from '@/test/render';
// The screens' chunk loaded up front, as the route table would have it by the first render.
import '../screens';

const account = makeAccount('a1', 'Main', [{ orgId: 42, displayName: 'Cloud Apps' }]);
const CAMPAIGNS = '/optimization/a1/42';
const COPY = 'PUT /api/asa/campaigns/copy';

const campaign = (id: string, name: string) => ({ campaignId: id, campaignName: name, servingStatus: 'RUNNING', campaignStatus: 'ENABLED', tag: [], dailyBudget: 10 });
function report(items: unknown[]) {
  return makeReport(items, { currency: 'USD', lastSyncedAt: '2026-11-19T10:00:00Z' });
}
const REPORT = 'POST /api/asa/reports';

jest.setTimeout(30_000);

// Task polls every 50 ms instead of the app's 1000 ms: the test waits on the task, not the
// clock. A state between two polls is held on screen (`held`) until the test has seen it.
beforeAll(() => {
  taskTiming.pollMs = 50;
});

describe('duplicate-campaign modal', () => {
  beforeEach(() => {
    window.localStorage.clear();
    mockApi('GET /api/account/getAll', ok({ items: [account] }));
  });

  async function openModal(user = makeUser()) {
    renderApp(CAMPAIGNS, user);
    const table = await screen.findByTestId('report-table');
    await userEvent.click(await within(table).findByRole('checkbox', { name: 'Select all rows on this page' }));
    const bar = await screen.findByTestId('bulk-edit-bar');
    return within(bar).getByRole('button', { name: 'Duplicate' });
  }

  it('copies the selected campaigns, follows the task and reads the table again', async () => {
    let copied = false;
    mockApi(REPORT, () => ok(report(copied ? [campaign('7', 'Brand US'), campaign('8', 'Generic US'), campaign('9', 'Brand US copy 1')] : [campaign('7', 'Brand US'), campaign('8', 'Generic US')])));
    mockApi(COPY, ok({ id: 'k1' }));
    const running = ok({ item: makeTask({ id: 'k1', kind: 'copy-campaigns', message: 'Creating ad groups...', details: creationDetails({ groupsCreated: 1, groupsTotal: 4, campaignsCreated: 0, campaignsTotal: 2 }) }) });
    const done = () => {
      copied = true;
      return ok({
        item: makeTask({
          id: 'k1',
          kind: 'copy-campaigns',
          finish: true,
          message: 'Campaigns created',
          details: creationDetails({ groupsCreated: 4, groupsTotal: 4, campaignsCreated: 2, campaignsTotal: 2, finish: true, campaignsMapping: [{ name: 'Brand US copy 1', campaignId: '9', adGroups: [] }, { name: 'Generic US copy 1', campaignId: '10', adGroups: [] }] }),
        }),
      });
    };
    const finished = held(done);
    mockApi('GET /api/tasks/k1', running, finished.answer);
    await userEvent.click(await openModal());
    const modal = await screen.findByTestId('duplicate-modal');
    expect(within(modal).getByTestId('copy-selected')).toHaveTextContent('2 campaigns selected');
    expect(within(modal).getByLabelText('Number of copies')).toHaveValue('1');
    for (const name of [/Ad groups and their keywords/, /Campaign negative keywords/, /^Ads/, /Create the copies paused/]) expect(within(modal).getByRole('switch', { name })).toBeChecked();

    await userEvent.click(within(modal).getByRole('switch', { name: /Campaign negative keywords/ }));
    await userEvent.type(within(modal).getByLabelText('Bid for every keyword (optional)'), '0.01');
    await userEvent.click(within(modal).getByRole('button', { name: 'Duplicate' }));
    expect(await within(modal).findByText('Bid must be at least $0.10')).toBeInTheDocument();
    expect(callsTo(COPY)).toHaveLength(0);

    await userEvent.clear(within(modal).getByLabelText('Bid for every keyword (optional)'));
    await userEvent.type(within(modal).getByLabelText('Bid for every keyword (optional)'), '0.75');
    await userEvent.click(within(modal).getByRole('button', { name: 'Duplicate' }));
    await waitFor(() => expect(callsTo(COPY)).toHaveLength(1));
    expect(callsTo(COPY)[0]!.url).toContain('accountId=a1');
    expect(callsTo(COPY)[0]!.url).toContain('orgId=42');
    expect(callsTo(COPY)[0]!.body).toEqual({ campaigns: ['7', '8'], numberOfCopies: 1, adGroup: true, campaignNegativeKeywords: false, customAds: true, cptBid: { amount: '0.75', currency: 'USD' }, cpaGoal: null, status: 'PAUSED' });

    expect(await within(modal).findByTestId('creation-groups')).toHaveTextContent('1 / 4');
    finished.release();
    expect(await within(modal).findByTestId('copy-names')).toHaveTextContent('Brand US copy 1');
    expect(within(modal).getByText('Copies created')).toBeInTheDocument();
    // The table reads the copies.
    await userEvent.click(within(modal).getAllByRole('button', { name: 'Close' }).at(-1)!);
    expect(await within(await screen.findByTestId('report-table')).findByText('Brand US copy 1')).toBeInTheDocument();
  });

  it.each(['0', '11', '1.5'])('refuses %s copies with the field’s message and never changes the number', async (typed) => {
    mockApi(REPORT, ok(report([campaign('7', 'Brand US')])));
    await userEvent.click(await openModal());
    const modal = await screen.findByTestId('duplicate-modal');
    const field = within(modal).getByLabelText('Number of copies');
    await userEvent.clear(field);
    await userEvent.type(field, typed);
    await userEvent.tab();
    expect(field).toHaveValue(typed);
    await userEvent.click(within(modal).getByRole('button', { name: 'Duplicate' }));
    expect(await within(modal).findByText('Enter a whole number from 1 to 10')).toBeInTheDocument();
    expect(field).toHaveValue(typed);
    expect(callsTo(COPY)).toHaveLength(0);
  });

  it('shows the campaigns limit (spec §8)', async () => {
    mockApi(REPORT, ok(report([campaign('7', 'Brand US')])));
    mockApi(COPY, fail(400, 'LIMIT_HAS_BEEN_REACHED', [], { type: 'AVAILABLECAMPAIGNS' }));
    await userEvent.click(await openModal(makeUser({ purchase: makePurchase({ name: 'pro', free: false, full: true }) })));
    const modal = await screen.findByTestId('duplicate-modal');
    await userEvent.click(within(modal).getByRole('button', { name: 'Duplicate' }));
    const notice = await within(modal).findByTestId('limit-notice');
    expect(notice).toHaveTextContent('The limit of campaigns has been exceeded');
    expect(notice).toHaveTextContent('Do you want to expand the limits?');
  });

  it('is disabled for readers', async () => {
    mockApi(REPORT, ok(report([campaign('7', 'Brand US')])));
    expect(await openModal(makeUser({ permission: 'reader' }))).toBeDisabled();
  });
});
