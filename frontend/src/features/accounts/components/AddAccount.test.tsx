import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { callsTo, fail, mockApi, ok } from '@/test/fetch-mock';
import { makeAccount, makeUser, makeReport } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { activeStorageKey } from '../active';

const AUTHORIZE = 'http://sandbox.test/auth/oauth2/authorize?state=s1';

interface FakePopup {
  location: { href: string };
  closed: boolean;
  close: jest.Mock;
}

function fakePopup(): { popup: FakePopup; open: jest.SpyInstance } {
  const popup: FakePopup = { location: { href: 'about:blank' }, closed: false, close: jest.fn() };
  const open = jest.spyOn(window, 'open').mockImplementation(() => popup as unknown as Window);
  return { popup, open };
}

function postFromPopup(data: unknown, origin = window.location.origin) {
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { origin, data }));
  });
}

/** The snackbar showing `text`, to check its colour. */
async function snackbar(text: string | RegExp) {
  const message = await screen.findByText(text);
  return message.closest('.mantine-Notification-root') as HTMLElement;
}

async function startPopup(name = 'Sandbox main') {
  await userEvent.type(await screen.findByLabelText(/Account name/), name);
  await userEvent.click(screen.getByRole('button', { name: 'Continue with Apple' }));
}

afterEach(() => jest.restoreAllMocks());
beforeEach(() => window.localStorage.clear());

// The campaign groups page a connect lands on renders a report table, slowly in jsdom.
jest.setTimeout(20_000);

/** An ORGS-level report answer of `items` (the campaign groups page). */
function orgsReport(items: Record<string, unknown>[]) {
  return makeReport(items, { currency: 'USD', lastSyncedAt: null });
}

describe('add account: Continue with Apple', () => {
  it('requires a name of at most 30 characters, with a counter', async () => {
    const { open } = fakePopup();
    renderApp('/oauth_v2', makeUser());
    await userEvent.click(await screen.findByRole('button', { name: 'Continue with Apple' }));
    expect(await screen.findByText('Please complete this field to continue')).toBeInTheDocument();
    expect(open).not.toHaveBeenCalled();
    const input = screen.getByLabelText(/Account name/);
    expect(input).toHaveAttribute('maxLength', '30');
    await userEvent.type(input, 'Main');
    expect(screen.getByTestId('name-counter')).toHaveTextContent('4/30');
  });

  it('opens the 1025×580 popup on the authorize page, then connects on its oauth message', async () => {
    const { popup, open } = fakePopup();
    mockApi('GET /api/account/urlOauth', ok({ url: AUTHORIZE }));
    mockApi('GET /api/account/oauth', ok({ status: 'OK', accountId: 'new', added: true }));
    mockApi('GET /api/account/getAll', ok({ items: [] }), ok({ items: [makeAccount('new', 'Sandbox main', [{ orgId: '1', displayName: 'US' }])] }));
    mockApi('POST /api/asa/reports', ok(orgsReport([{ orgId: '1', orgName: 'US', status: 'SELECTED', currency: 'USD', timeZone: 'UTC', localSpend: 0 }])));
    const { location } = renderApp('/oauth_v2', makeUser());
    await startPopup();
    expect(open).toHaveBeenCalledWith('about:blank', 'searchdeck-oauth', expect.stringContaining('width=1025,height=580'));
    await waitFor(() => expect(popup.location.href).toBe(AUTHORIZE));
    expect(callsTo('GET /api/account/urlOauth')[0]?.url).toBe('/api/account/urlOauth?accountName=Sandbox+main');
    expect(await screen.findByText('Finish signing in with Apple in the window that opened.')).toBeInTheDocument();

    // Messages from elsewhere, or of another shape, are ignored.
    postFromPopup({ type: 'oauth', state: 's1', code: 'c1' }, 'http://evil.test');
    postFromPopup({ type: 'other', state: 's1', code: 'c1' });
    expect(callsTo('GET /api/account/oauth')).toHaveLength(0);

    postFromPopup({ type: 'oauth', state: 's1', code: 'c1' });
    postFromPopup({ type: 'oauth', state: 's1', code: 'c1' });
    expect(await snackbar('New account added')).toHaveStyle({ '--notification-color': 'var(--mantine-color-green-filled)' });
    expect(callsTo('GET /api/account/oauth').map((c) => c.url)).toEqual(['/api/account/oauth?state=s1&code=c1']);
    await waitFor(() => expect(location()).toBe('/optimization/new'));
    expect(JSON.parse(window.localStorage.getItem(activeStorageKey('ann@example.com'))!)).toEqual({ accountId: 'new', orgId: null });
    expect(await screen.findByRole('heading', { name: 'Sandbox main' }, { timeout: 10_000 })).toBeInTheDocument();
    // Its campaign groups with their totals (the ORGS level of the report).
    expect(await screen.findByRole('link', { name: 'US' })).toHaveAttribute('href', '/optimization/new/1');
    expect(callsTo('POST /api/asa/reports').some((c) => c.url === '/api/asa/reports?accountId=new' && (c.body as { level: string }).level === 'ORGS')).toBe(true);
  });

  it('shows a failed check in a red snackbar and stays', async () => {
    fakePopup();
    mockApi('GET /api/account/urlOauth', ok({ url: AUTHORIZE }));
    mockApi('GET /api/account/oauth', fail(400, 'This connection request is unknown, expired or already used. Please start again'));
    const { location } = renderApp('/oauth_v2', makeUser());
    await startPopup();
    await screen.findByText('Finish signing in with Apple in the window that opened.');
    postFromPopup({ type: 'oauth', state: 's1', error: 'access_denied' });
    const toast = await snackbar(/unknown, expired or already used/);
    expect(toast).toHaveStyle({ '--notification-color': 'var(--mantine-color-red-filled)' });
    expect(callsTo('GET /api/account/oauth')[0]?.url).toBe('/api/account/oauth?state=s1&error=access_denied');
    expect(location()).toBe('/oauth_v2');
  });

  it("says the spec's network text when the check cannot reach the server", async () => {
    fakePopup();
    mockApi('GET /api/account/urlOauth', ok({ url: AUTHORIZE }));
    mockApi('GET /api/account/oauth', { status: 502, raw: '' });
    renderApp('/oauth_v2', makeUser());
    await startPopup();
    await screen.findByText('Finish signing in with Apple in the window that opened.');
    postFromPopup({ type: 'oauth', state: 's1', code: 'c1' });
    expect(await snackbar("Sorry, we couldn't connect to your account. Please try again")).toBeInTheDocument();
  });

  it('logs and refuses a result whose status is not OK', async () => {
    fakePopup();
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    mockApi('GET /api/account/urlOauth', ok({ url: AUTHORIZE }));
    mockApi('GET /api/account/oauth', ok({ status: 'PENDING', accountId: 'x', added: true }));
    const { location } = renderApp('/oauth_v2', makeUser());
    await startPopup();
    await screen.findByText('Finish signing in with Apple in the window that opened.');
    postFromPopup({ type: 'oauth', state: 's1', code: 'c1' });
    expect(await snackbar("Sorry, we couldn't connect to your account. Please try again")).toBeInTheDocument();
    expect(logged).toHaveBeenCalledWith('Result status in not OK', 'PENDING');
    expect(location()).toBe('/oauth_v2');
  });

  it('puts a refused name on the field and other URL failures in a snackbar', async () => {
    const { popup } = fakePopup();
    mockApi(
      'GET /api/account/urlOauth',
      fail(400, 'Account name must be at most 30 characters', [{ field: 'accountName', message: 'Account name must be at most 30 characters' }]),
      fail(500, 'Error. Try again later'),
    );
    renderApp('/oauth_v2', makeUser());
    await startPopup();
    expect(await screen.findByText('Account name must be at most 30 characters')).toBeInTheDocument();
    expect(popup.close).toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Continue with Apple' }));
    expect(await snackbar('An error occurred while fetching OAuth URL. Error. Try again later')).toHaveStyle({
      '--notification-color': 'var(--mantine-color-red-filled)',
    });
  });
});

describe('add account: API key pair', () => {
  it('shows the public key, then connects with client, team and key ids; field errors land on fields', async () => {
    mockApi('POST /api/account/getPublicKey', ok({ publicKey: '-----BEGIN PUBLIC KEY-----\nMFkw\n-----END PUBLIC KEY-----' }));
    mockApi(
      'POST /api/account/create',
      fail(400, 'Please complete this field to continue', [{ field: 'keyId', message: 'Please complete this field to continue' }]),
      ok({ item: makeAccount('k1', 'Keys'), added: true }),
    );
    mockApi('GET /api/account/getAll', ok({ items: [] }), ok({ items: [makeAccount('k1', 'Keys')] }));
    const { location } = renderApp('/oauth_v2', makeUser());
    await userEvent.click(await screen.findByRole('tab', { name: 'API key' }));
    expect(await screen.findByTestId('public-key')).toHaveTextContent('BEGIN PUBLIC KEY');
    expect(screen.getByRole('button', { name: 'Copy public key' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Connect account' }));
    expect(await screen.findAllByText('Please complete this field to continue')).toHaveLength(4);
    expect(callsTo('POST /api/account/create')).toHaveLength(0);

    await userEvent.type(screen.getByLabelText(/Account name/), 'Keys');
    await userEvent.type(screen.getByLabelText('Client ID'), 'SEARCHADS.c');
    await userEvent.type(screen.getByLabelText('Team ID'), 'SEARCHADS.t');
    await userEvent.type(screen.getByLabelText('Key ID'), 'k-1');
    await userEvent.click(screen.getByRole('button', { name: 'Connect account' }));
    await waitFor(() => expect(screen.getByLabelText('Key ID')).toHaveAttribute('aria-invalid', 'true'));
    expect(callsTo('POST /api/account/create')[0]?.body).toEqual({ name: 'Keys', clientId: 'SEARCHADS.c', teamId: 'SEARCHADS.t', keyId: 'k-1' });

    await userEvent.click(screen.getByRole('button', { name: 'Connect account' }));
    expect(await screen.findByText('New account added')).toBeInTheDocument();
    await waitFor(() => expect(location()).toBe('/optimization/k1'));
  });
});

describe('reconnecting an Apple Ads user that is already connected', () => {
  // Earlier tests' snackbars would otherwise hold this one in Mantine's queue.
  beforeEach(() => {
    act(() => {
      notifications.clean();
    });
  });

  it('says it was already connected and renamed, never that an account was added', async () => {
    fakePopup();
    mockApi('GET /api/account/urlOauth', ok({ url: AUTHORIZE }));
    mockApi('GET /api/account/oauth', ok({ status: 'OK', accountId: 'old', added: false, previousName: 'First name' }));
    mockApi('GET /api/account/getAll', ok({ items: [makeAccount('old', 'First name')] }), ok({ items: [makeAccount('old', 'Second name')] }));
    mockApi('POST /api/asa/reports', ok(orgsReport([])));
    renderApp('/oauth_v2', makeUser());
    await startPopup('Second name');
    await screen.findByText('Finish signing in with Apple in the window that opened.');
    postFromPopup({ type: 'oauth', state: 's1', code: 'c1' });
    expect(await screen.findByText('This Apple Ads user is already connected as \u201cFirst name\u201d; its name was updated to \u201cSecond name\u201d')).toBeInTheDocument();
    expect(screen.queryByText('New account added')).not.toBeInTheDocument();
  });

  it('by key pair says the same', async () => {
    mockApi('POST /api/account/getPublicKey', ok({ publicKey: '-----BEGIN PUBLIC KEY-----\nMFkw\n-----END PUBLIC KEY-----' }));
    mockApi('POST /api/account/create', ok({ item: makeAccount('k1', 'Keys again'), added: false, previousName: 'Keys' }));
    mockApi('GET /api/account/getAll', ok({ items: [makeAccount('k1', 'Keys')] }), ok({ items: [makeAccount('k1', 'Keys again')] }));
    renderApp('/oauth_v2', makeUser());
    await userEvent.click(await screen.findByRole('tab', { name: 'API key' }));
    await screen.findByTestId('public-key');
    await userEvent.type(screen.getByLabelText(/Account name/), 'Keys again');
    await userEvent.type(screen.getByLabelText('Client ID'), 'SEARCHADS.c');
    await userEvent.type(screen.getByLabelText('Team ID'), 'SEARCHADS.t');
    await userEvent.type(screen.getByLabelText('Key ID'), 'k-1');
    await userEvent.click(screen.getByRole('button', { name: 'Connect account' }));
    expect(await screen.findByText('This Apple Ads user is already connected as \u201cKeys\u201d; its name was updated to \u201cKeys again\u201d')).toBeInTheDocument();
    expect(screen.queryByText('New account added')).not.toBeInTheDocument();
  });
});

describe('the popup return at /oauth_v2', () => {
  it('posts state and code to its opener (same origin) and closes', async () => {
    const postMessage = jest.fn();
    Object.defineProperty(window, 'opener', { value: { postMessage }, configurable: true });
    const close = jest.spyOn(window, 'close').mockImplementation(() => undefined);
    try {
      renderApp('/oauth_v2?code=c1&state=s1', makeUser());
      await waitFor(() => expect(close).toHaveBeenCalled());
      expect(postMessage).toHaveBeenCalledWith({ type: 'oauth', state: 's1', code: 'c1' }, window.location.origin);
      expect(screen.getByText('Connecting your account…')).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Account Settings' })).toHaveAttribute('data-disabled', 'true');
    } finally {
      Object.defineProperty(window, 'opener', { value: null, configurable: true });
    }
  });
});

describe('the API connection screen', () => {
  it('is where a user without accounts lands from Ads Optimization; readers are told to ask', async () => {
    const { location } = renderApp('/optimization', makeUser({ permission: 'reader' }));
    expect(await screen.findByRole('heading', { name: 'Connect your Apple Ads account' })).toBeInTheDocument();
    expect(location()).toBe('/oauth_v2');
    expect(screen.getByText(/Ask an owner, admin or editor/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Continue with Apple' })).not.toBeInTheDocument();
  });

  it('Ads Optimization goes to the active account when there is one', async () => {
    mockApi('GET /api/account/getAll', ok({ items: [makeAccount('a1', 'Main'), makeAccount('a2', 'Second')] }));
    window.localStorage.setItem(activeStorageKey('ann@example.com'), JSON.stringify({ accountId: 'a2', orgId: null }));
    mockApi('POST /api/asa/reports', ok(orgsReport([])));
    const { location } = renderApp('/optimization', makeUser());
    await waitFor(() => expect(location()).toBe('/optimization/a2'));
    expect(await screen.findByText('No campaign groups', {}, { timeout: 10_000 })).toBeInTheDocument();
  });
});

describe('Ads Optimization when the accounts cannot be loaded', () => {
  it('says why instead of sending the user to connect again', async () => {
    mockApi('GET /api/account/getAll', fail(500, 'The database is not reachable'));
    const { location } = renderApp('/optimization', makeUser());
    expect(await screen.findByText('The database is not reachable')).toBeInTheDocument();
    expect(location()).toBe('/optimization');
  });
});

describe('the campaign groups screen', () => {
  it('makes the account in its address the active one', async () => {
    mockApi('GET /api/account/getAll', ok({ items: [makeAccount('a1', 'Main'), makeAccount('a2', 'Second', [{ orgId: '5', displayName: 'EU' }])] }));
    window.localStorage.setItem(activeStorageKey('ann@example.com'), JSON.stringify({ accountId: 'a1', orgId: null }));
    renderApp('/optimization/a2', makeUser());
    expect(await screen.findByRole('heading', { name: 'Second' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('account-selector')).toHaveTextContent('Second'));
    expect(JSON.parse(window.localStorage.getItem(activeStorageKey('ann@example.com'))!)).toEqual({ accountId: 'a2', orgId: null });
  });

  it('says so for an account outside the workspace', async () => {
    mockApi('GET /api/account/getAll', ok({ items: [makeAccount('a1', 'Main')] }));
    renderApp('/optimization/zz', makeUser());
    expect(await screen.findByText('This account is not in your workspace.')).toBeInTheDocument();
  });
});
