import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { callsTo, fail, mockApi, ok } from '@/test/fetch-mock';
import { makeAccount, makeTask, makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { activeStorageKey } from '../active';

const orgs = (n: number) => Array.from({ length: n }, (_, i) => ({ orgId: String(100 + i), displayName: `Group ${i + 1}` }));
const many = (n: number) => Array.from({ length: n }, (_, i) => makeAccount(`a${i + 1}`, `Account ${i + 1}`));

async function openSelector() {
  await userEvent.click(await screen.findByTestId('account-selector'));
  return screen.findByRole('group', { name: 'Accounts' });
}

describe('account selector', () => {
  beforeEach(() => window.localStorage.clear());

  it('shows the active account and campaign group, or the defaults', async () => {
    mockApi('GET /api/account/getAll', ok({ items: [makeAccount('a1', 'Main', orgs(2))] }));
    renderApp('/settings/general', makeUser());
    const target = await screen.findByTestId('account-selector');
    await waitFor(() => expect(target).toHaveTextContent('Main'));
    expect(target).toHaveTextContent('All campaign groups');
  });

  it("says 'Select account' without accounts", async () => {
    renderApp('/settings/general', makeUser());
    expect(await screen.findByTestId('account-selector')).toHaveTextContent('Select account');
    const list = await openSelector();
    expect(within(list).getByText('No accounts connected yet')).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Campaign groups' })).not.toBeInTheDocument();
  });

  it('has no search box below 5 items, and one from 5', async () => {
    mockApi('GET /api/account/getAll', ok({ items: [...many(4), makeAccount('big', 'Big', orgs(5))] }));
    window.localStorage.setItem(activeStorageKey('ann@example.com'), JSON.stringify({ accountId: 'a1', orgId: null }));
    renderApp('/settings/general', makeUser());
    await openSelector();
    expect(screen.getByRole('textbox', { name: 'Search accounts' })).toBeInTheDocument();
    // a1 has no groups: no search for them.
    expect(screen.queryByRole('textbox', { name: 'Search campaign groups' })).not.toBeInTheDocument();
  });

  it('searches, and says so when nothing matches', async () => {
    mockApi('GET /api/account/getAll', ok({ items: many(6) }));
    renderApp('/settings/general', makeUser());
    const list = await openSelector();
    await userEvent.type(screen.getByRole('textbox', { name: 'Search accounts' }), 'account 6');
    expect(within(list).getAllByRole('button').map((b) => b.textContent)).toEqual(['Account 6']);
    await userEvent.type(screen.getByRole('textbox', { name: 'Search accounts' }), 'x');
    expect(within(list).getByText('No results found')).toBeInTheDocument();
    expect(within(list).getByText("We couldn't find anything matching your search")).toBeInTheDocument();
  });

  it('lays out 24 accounts in two columns and 25 in one', async () => {
    mockApi('GET /api/account/getAll', ok({ items: many(24) }), ok({ items: many(25) }));
    const first = renderApp('/settings/general', makeUser());
    await openSelector();
    const columnsOf = () => Array.from(screen.getByTestId('accounts-columns').querySelectorAll('[data-column]'));
    expect(columnsOf().map((c) => within(c as HTMLElement).getAllByRole('button').length)).toEqual([12, 12]);
    first.unmount();
    renderApp('/settings/general', makeUser());
    await openSelector();
    expect(columnsOf().map((c) => within(c as HTMLElement).getAllByRole('button').length)).toEqual([25]);
  });

  it('switches account: server told, org cleared, snackbar, choice stored per email', async () => {
    mockApi('GET /api/account/getAll', ok({ items: [makeAccount('a1', 'Main', orgs(2)), makeAccount('a2', 'Second', orgs(1))] }));
    mockApi('GET /api/account/use/a2', ok({ item: null, orgId: null }));
    window.localStorage.setItem(activeStorageKey('ann@example.com'), JSON.stringify({ accountId: 'a1', orgId: '101' }));
    renderApp('/settings/general', makeUser());
    const target = await screen.findByTestId('account-selector');
    await waitFor(() => expect(target).toHaveTextContent('Group 2'));
    const list = await openSelector();
    await userEvent.click(within(list).getByRole('button', { name: 'Second' }));
    expect(await screen.findByText('Account changed to Second')).toBeInTheDocument();
    expect(callsTo('GET /api/account/use/a2')[0]?.url).toBe('/api/account/use/a2');
    expect(JSON.parse(window.localStorage.getItem(activeStorageKey('ann@example.com'))!)).toEqual({ accountId: 'a2', orgId: null });
    await waitFor(() => expect(target).toHaveTextContent('All campaign groups'));
    expect(target).toHaveTextContent('Second');
  });

  it('chooses a campaign group of the active account', async () => {
    mockApi('GET /api/account/getAll', ok({ items: [makeAccount('a1', 'Main', orgs(2))] }));
    mockApi('GET /api/account/use/a1', ok({ item: null, orgId: '101' }));
    renderApp('/settings/general', makeUser());
    await openSelector();
    const groups = screen.getByRole('group', { name: 'Campaign groups' });
    await userEvent.click(within(groups).getByRole('button', { name: 'Group 2' }));
    await waitFor(() => expect(screen.getByTestId('account-selector')).toHaveTextContent('Group 2'));
    expect(callsTo('GET /api/account/use/a1')[0]?.url).toBe('/api/account/use/a1?orgId=101');
  });

  it('reports a failed switch with the spec text', async () => {
    mockApi('GET /api/account/getAll', ok({ items: [makeAccount('a1', 'Main'), makeAccount('a2', 'Second')] }));
    mockApi('GET /api/account/use/a2', fail(404, 'Account not found'));
    renderApp('/settings/general', makeUser());
    const list = await openSelector();
    await userEvent.click(within(list).getByRole('button', { name: 'Second' }));
    expect(await screen.findByText('An error occurred while changing acccount. Account not found')).toBeInTheDocument();
    expect(screen.getByTestId('account-selector')).toHaveTextContent('Main');
  });

  it('refreshes campaign groups and shows the last sync when the server serves it', async () => {
    mockApi('GET /api/account/getAll', ok({ items: [makeAccount('a1', 'Main', orgs(1), { lastSyncedAt: '2026-03-04T05:06:00Z' })] }));
    mockApi('GET /api/asa/getAccountData', ok({ item: makeAccount('a1', 'Main', orgs(3)) }));
    renderApp('/settings/general', makeUser());
    await openSelector();
    expect(screen.getByTestId('last-synced')).toHaveTextContent(/^Last synced \d\d\/03\/2026 \d\d:\d\d · Next sync /);
    await userEvent.click(screen.getByRole('button', { name: 'Refresh campaign groups' }));
    expect(await screen.findByText('Campaign groups refreshed')).toBeInTheDocument();
    expect(callsTo('GET /api/asa/getAccountData')[0]?.url).toBe('/api/asa/getAccountData?accountId=a1');
  });

  it('syncs a connection now beside its last and next sync, the button waiting while the sync runs (issue 42 item 21)', async () => {
    const synced = makeAccount('a1', 'Main', orgs(1), { lastSyncedAt: '2026-03-04T05:06:00Z', nextSyncAt: '2026-03-04T09:00:00Z' });
    mockApi('GET /api/account/getAll', ok({ items: [synced] }));
    let started = false;
    mockApi('GET /api/tasks', () => ok({ items: started ? [makeTask({ id: 's1', kind: 'sync-account', accountId: 'a1', message: 'Syncing campaigns' })] : [] }));
    mockApi('POST /api/account/sync/a1', () => {
      started = true;
      return ok({ id: 's1', joined: false });
    });
    renderApp('/settings/general', makeUser({ permission: 'writer' }));
    await openSelector();
    expect(screen.getByTestId('sync-times')).toHaveTextContent(/^Last synced \d\d\/03\/2026 \d\d:\d\d · Next sync \d\d\/03\/2026 \d\d:00$/);
    await userEvent.click(screen.getByRole('button', { name: 'Sync now' }));
    expect(await screen.findByText('Sync started: the tables update when it ends')).toBeInTheDocument();
    expect(callsTo('POST /api/account/sync/a1')).toHaveLength(1);
    // The task list is read again: the running sync holds the button.
    const waiting = await screen.findByRole('button', { name: 'Syncing…' });
    expect(waiting).toBeDisabled();
  });

  it("says why a sync now is refused in the server's words (429)", async () => {
    mockApi('GET /api/account/getAll', ok({ items: [makeAccount('a1', 'Main', orgs(1), { lastSyncedAt: '2026-03-04T05:06:00Z' })] }));
    mockApi('POST /api/account/sync/a1', fail(429, 'This account was synced moments ago. Try again in 87 s'));
    renderApp('/settings/general', makeUser());
    await openSelector();
    await userEvent.click(screen.getByRole('button', { name: 'Sync now' }));
    expect(await screen.findByText('This account was synced moments ago. Try again in 87 s')).toBeInTheDocument();
  });

  it("gives viewers the sync times but no 'Sync now'", async () => {
    mockApi('GET /api/account/getAll', ok({ items: [makeAccount('a1', 'Main', orgs(1))] }));
    renderApp('/settings/general', makeUser({ permission: 'reader' }));
    await openSelector();
    expect(screen.getByTestId('sync-times')).toHaveTextContent(/^Not synced yet · Next sync /);
    expect(screen.queryByRole('button', { name: 'Sync now' })).not.toBeInTheDocument();
  });

  it("offers no 'Add new account' to readers", async () => {
    mockApi('GET /api/account/getAll', ok({ items: [makeAccount('a1', 'Main')] }));
    renderApp('/settings/general', makeUser({ permission: 'reader' }));
    await openSelector();
    const popover = screen.getByTestId('account-popover');
    expect(within(popover).getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
    expect(within(popover).queryByRole('button', { name: 'Add new account' })).not.toBeInTheDocument();
  });

  it("opens the add-account modal from 'Add new account', and signs out", async () => {
    mockApi('GET /api/account/getAll', ok({ items: [makeAccount('a1', 'Main')] }));
    mockApi('GET /api/auth/logout', ok());
    const { location } = renderApp('/settings/general', makeUser());
    await openSelector();
    await userEvent.click(screen.getByRole('button', { name: 'Add new account' }));
    expect(await screen.findByRole('dialog', { name: 'Add new account' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    await openSelector();
    await userEvent.click(within(screen.getByTestId('account-popover')).getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByText('Sign out complete')).toBeInTheDocument();
    await waitFor(() => expect(location()).toBe('/login'));
  });
});
