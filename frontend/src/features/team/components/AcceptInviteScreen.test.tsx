import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { makeAccount, makeUser } from '@/test/fixtures';
import { callsTo, fail, mockApi, ok } from '@/test/fetch-mock';
import { renderApp } from '@/test/render';

const LINK = '/invite?email=bob%40example.com&code=ABCDEFGHJKLMNPQRSTUV';
const bob = makeUser({ id: 'u2', email: 'bob@example.com', fullName: 'Bob', workspaceId: 'own' });

describe('accepting an invitation', () => {
  it('signed out, leads through register with the invited email, accepts, then opens the workspace', async () => {
    mockApi('POST /api/auth/register', ok({ item: bob }));
    mockApi('POST /api/team/checkCode', ok({ workspaceId: 'team', workspaceName: 'Acme', role: 'reader' }));
    mockApi('POST /api/workspaces/switch', ok({ item: { ...bob, workspaceId: 'team', permission: 'reader' } }));
    mockApi('POST /api/team/invitation', ok({ workspaceName: 'Acme', inviter: 'Olga Owner', role: 'reader', expiresAt: 1765000000 }));
    const { location } = renderApp(LINK);
    // Before signing in, what the invitation offers, asked with the link's two halves.
    expect(await screen.findByTestId('invite-offer')).toHaveTextContent('Olga Owner invited you to join Acme as Viewer.');
    expect(callsTo('POST /api/team/invitation')[0]?.body).toEqual({ email: 'bob@example.com', code: 'ABCDEFGHJKLMNPQRSTUV' });
    expect(await screen.findByText('Sign in or create an account with bob@example.com to accept.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Create account' }));
    expect(await screen.findByRole('textbox', { name: 'Email' })).toHaveValue('bob@example.com');
    // Switching to the login form keeps the way back.
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', expect.stringContaining('redirect=%2Finvite'));
    await userEvent.type(screen.getByRole('textbox', { name: 'Full name' }), 'Bob');
    await userEvent.type(screen.getByLabelText('Password'), 'long password');
    await userEvent.type(screen.getByLabelText('Repeat password'), 'long password');
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('You joined Acme as Viewer.')).toBeInTheDocument();
    expect(callsTo('POST /api/team/checkCode')).toHaveLength(1);
    expect(callsTo('POST /api/team/checkCode')[0]?.body).toEqual({ code: 'ABCDEFGHJKLMNPQRSTUV' });
    await userEvent.click(screen.getByRole('button', { name: 'Open Acme' }));
    await waitFor(() => expect(location()).toMatch(/^\/(optimization|oauth_v2)/));
    expect(callsTo('POST /api/workspaces/switch')[0]?.body).toEqual({ workspaceId: 'team' });
  });

  it('signed out, says before any sign-in that the invitation can no longer be used', async () => {
    mockApi('POST /api/team/invitation', fail(410, 'This invitation has expired'));
    renderApp(LINK);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('This invitation has expired')).toBeInTheDocument();
    expect(screen.queryByTestId('invite-offer')).not.toBeInTheDocument();
    expect(screen.getByText('You were invited to a team. Sign in or create an account with bob@example.com to accept.')).toBeInTheDocument();
    expect(callsTo('POST /api/team/invitation')).toHaveLength(1);
  });

  it('signed in, says why the invitation is refused', async () => {
    mockApi('POST /api/team/checkCode', fail(400, 'This invitation was sent to another email address', [{ field: 'code', message: 'This invitation was sent to another email address' }]));
    renderApp(LINK, makeUser());
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('This invitation was sent to another email address')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign out and use another account' })).toBeInTheDocument();
    expect(callsTo('POST /api/team/checkCode')).toHaveLength(1);
  });

  it('without a code says to open the email link again', async () => {
    renderApp('/invite', makeUser());
    expect(await screen.findByText('This link has no invitation code. Open the link from the invitation email again.')).toBeInTheDocument();
  });
});

describe('workspace switcher', () => {
  it('switches between several workspaces, reloading the session and the sidebar', async () => {
    mockApi(
      'GET /api/workspaces/all',
      ok({ items: [{ id: '1', name: 'Own', role: 'owner', current: true }, { id: 'team', name: 'Acme', role: 'reader', current: false }] }),
    );
    mockApi('POST /api/workspaces/switch', ok({ item: makeUser({ workspaceId: 'team', permission: 'reader' }) }));
    // The active account the server keeps for the caller in the workspace switched to.
    mockApi('GET /api/account/getUsed', ok({ item: makeAccount('a9', 'Acme ads'), orgId: '7' }));
    const { location } = renderApp('/settings/general', makeUser());
    await userEvent.click(await screen.findByTestId('workspace-switcher'));
    await userEvent.click(await screen.findByRole('menuitem', { name: /Acme/ }));
    expect(await screen.findByText('Workspace changed to Acme')).toBeInTheDocument();
    expect(callsTo('POST /api/workspaces/switch')[0]?.body).toEqual({ workspaceId: 'team' });
    expect(JSON.parse(window.localStorage.getItem('searchdeck:active-account:ann@example.com')!)).toEqual({ accountId: 'a9', orgId: '7' });
    await waitFor(() => expect(location()).not.toBe('/settings/general'));
    // The reader's sidebar: no Automated Rules.
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Automated Rules' })).not.toBeInTheDocument());
  });
});
