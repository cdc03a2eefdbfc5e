import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { accountKeys } from '@/features/accounts';
import { hasSessionHint, setSessionHint } from '@/features/auth';
import { makeAccount, makeUser } from '@/test/fixtures';
import { callsTo, fail, held, mockApi, ok } from '@/test/fetch-mock';
import { renderApp } from '@/test/render';
import { SIDEBAR_STORAGE_KEY } from './layout/AppLayout';

describe('start-up and guard', () => {
  it('sends a signed-out visitor of a protected page to login without a relogin (no sign of a session, so no 401 in the console)', async () => {
    const { location } = renderApp('/settings/general');
    await waitFor(() => expect(location()).toBe('/login?redirect=%2Fsettings%2Fgeneral'));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(callsTo('GET /api/auth/relogin')).toHaveLength(0);
  });

  it('relogs silently where a session was signed in, and forgets the sign when the server answers 401', async () => {
    setSessionHint(true);
    const { location } = renderApp('/settings/general');
    await waitFor(() => expect(location()).toBe('/login?redirect=%2Fsettings%2Fgeneral'));
    expect(callsTo('GET /api/auth/relogin')).toHaveLength(1);
    expect(hasSessionHint()).toBe(false);
  });

  it('keeps the sign when the relogin fails for another reason than 401', async () => {
    setSessionHint(true);
    mockApi('GET /api/auth/relogin', fail(500, 'Error. Try again later'));
    const { location } = renderApp('/settings/general');
    await waitFor(() => expect(location()).toBe('/login?redirect=%2Fsettings%2Fgeneral'));
    expect(callsTo('GET /api/auth/relogin')).toHaveLength(1);
    expect(hasSessionHint()).toBe(true);
  });

  it("asks the accounts beside the start-up relogin, not after its answer (issue 42 item 19), and opens the account's page with them", async () => {
    const relogin = held(ok({ item: makeUser() }));
    mockApi('GET /api/auth/relogin', relogin.answer);
    mockApi('GET /api/account/getAll', ok({ items: [makeAccount('a1', 'Main', [])] }));
    const { location } = renderApp('/optimization', makeUser());
    // The relogin is still held: the accounts are asked all the same.
    await waitFor(() => expect(callsTo('GET /api/account/getAll')).toHaveLength(1));
    expect(callsTo('GET /api/auth/relogin')).toHaveLength(1);
    relogin.release();
    await waitFor(() => expect(location()).toBe('/optimization/a1'));
    expect(callsTo('GET /api/account/getAll')).toHaveLength(1);
  });

  it('drops the accounts asked beside a relogin that finds no session, so a sign-in reads them afresh', async () => {
    setSessionHint(true);
    mockApi('GET /api/account/getAll', fail(401, 'Unauthorized'));
    const { location, queryClient } = renderApp('/optimization');
    await waitFor(() => expect(location()).toBe('/login?redirect=%2Foptimization'));
    expect(callsTo('GET /api/account/getAll')).toHaveLength(1);
    // Not kept as the accounts' answer (the 401), which a sign-in in this page would read.
    await waitFor(() => expect(queryClient.getQueryState(accountKeys.list())?.status ?? 'pending').toBe('pending'));
    expect(queryClient.getQueryData(accountKeys.list())).toBeUndefined();
  });

  it("drops the campaign groups' report asked beside a relogin that finds no session", async () => {
    setSessionHint(true);
    mockApi('POST /api/asa/reports', fail(401, 'Unauthorized'));
    const { location, queryClient } = renderApp('/optimization/a1');
    await waitFor(() => expect(location()).toBe('/login?redirect=%2Foptimization%2Fa1'));
    expect(callsTo('POST /api/asa/reports')).toHaveLength(2);
    // Neither the report nor its chart's points are kept as the 401 a sign-in would read.
    await waitFor(() => expect(queryClient.getQueryCache().findAll({ queryKey: ['optimization', 'report'] })).toHaveLength(0));
  });

  it('restores the session by the relogin', async () => {
    renderApp('/settings/general', makeUser());
    expect(await screen.findByRole('button', { name: 'Sign out' })).toBeInTheDocument();
    expect(callsTo('GET /api/auth/relogin')).toHaveLength(1);
    expect(hasSessionHint()).toBe(true);
  });

  it('sends a signed-out visitor of home to login without a redirect', async () => {
    const { location } = renderApp('/');
    await waitFor(() => expect(location()).toBe('/login'));
  });

  it('lets a signed-out visitor open a public page', async () => {
    const { location } = renderApp('/reset');
    expect(await screen.findByRole('heading', { name: 'Password recovery' })).toBeInTheDocument();
    expect(location()).toBe('/reset');
  });

  it('sends a signed-in user without accounts from login to the API connection screen', async () => {
    const { location } = renderApp('/login', makeUser());
    expect(await screen.findByRole('heading', { name: 'Connect your Apple Ads account' })).toBeInTheDocument();
    expect(location()).toBe('/oauth_v2');
  });

  it('shows the not-found page without the layout', async () => {
    renderApp('/no/such/page', makeUser());
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
  });
});

describe('layout', () => {
  it('lists only the sidebar entries whose screens exist, plus the help center', async () => {
    renderApp('/settings/general', makeUser());
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    const links = Array.from(nav.querySelectorAll('a')).map((a) => a.getAttribute('aria-label'));
    expect(links).toEqual(['Ads Optimization', 'Keyword Suggester', 'Automated Rules', 'Activity Log', 'Account Settings', 'Help center']);
  });

  it('hides Keyword Suggester and Automated Rules from readers, who keep Activity Log (spec §2 layout)', async () => {
    renderApp('/settings/general', makeUser({ permission: 'reader' }));
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    const links = Array.from(nav.querySelectorAll('a')).map((a) => a.getAttribute('aria-label'));
    expect(links).toEqual(['Ads Optimization', 'Activity Log', 'Account Settings', 'Help center']);
  });

  it('keeps the sidebar collapsed after a reload', async () => {
    const first = renderApp('/settings/general', makeUser());
    await userEvent.click(await screen.findByRole('button', { name: 'Collapse sidebar' }));
    expect(window.localStorage.getItem(SIDEBAR_STORAGE_KEY)).toBe('false');
    first.unmount();
    renderApp('/settings/general', makeUser());
    expect(await screen.findByRole('button', { name: 'Expand sidebar' })).toBeInTheDocument();
  });

  it('signs out: logout call, cookies cleared, toast, login screen', async () => {
    document.cookie = 'email=ann%40example.com; path=/';
    document.cookie = 'vid=42; path=/';
    mockApi('GET /api/auth/logout', ok());
    const { location } = renderApp('/settings/general', makeUser());
    await userEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    expect(await screen.findByText('Sign out complete')).toBeInTheDocument();
    await waitFor(() => expect(location()).toBe('/login'));
    expect(callsTo('GET /api/auth/logout')).toHaveLength(1);
    expect(document.cookie).not.toMatch(/email=|vid=/);
    expect(hasSessionHint()).toBe(false);
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
  });
});
