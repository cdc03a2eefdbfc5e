import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { makeUser } from '@/test/fixtures';
import { callsTo, fail, mockApi, ok } from '@/test/fetch-mock';
import { renderApp } from '@/test/render';

const member = (id: string, role: string, extra: Record<string, unknown> = {}) => ({
  id,
  email: `${id}@example.com`,
  fullName: id.charAt(0).toUpperCase() + id.slice(1),
  role,
  lastActive: 1764222000,
  joinedAt: 1764200000,
  you: false,
  ...extra,
});

const team = (items: unknown[], invitations: unknown[] = []) => ok({ items, invitations });

describe('Settings › Team', () => {
  it('is for owners and admins: others go to /restricted and do not see the section', async () => {
    const { location } = renderApp('/settings/team', makeUser({ permission: 'writer' }));
    await waitFor(() => expect(location()).toBe('/restricted'));
    const view = renderApp('/settings/general', makeUser({ permission: 'reader' }));
    const tabs = await screen.findByRole('tablist', { name: 'Settings sections' });
    expect(within(tabs).queryByRole('tab', { name: 'Team' })).not.toBeInTheDocument();
    expect(within(tabs).getByRole('tab', { name: 'General' })).toBeInTheDocument();
    view.unmount();
  });

  it('lists members with their role and activity, and pending invitations', async () => {
    mockApi(
      'GET /api/team/all',
      team(
        [member('ann', 'owner', { you: true }), member('bob', 'writer', { lastActive: null })],
        [{ id: 'i1', email: 'cat@example.com', role: 'reader', invitedBy: 'ann@example.com', createdAt: 1764220000, expiresAt: 1764824800, expired: false }],
      ),
    );
    renderApp('/settings/general', makeUser());
    await userEvent.click(await screen.findByRole('tab', { name: 'Team' }));
    const members = await screen.findByRole('table', { name: 'Members' });
    expect(within(members).getByText('Ann')).toBeInTheDocument();
    expect(within(members).getByText('You')).toBeInTheDocument();
    expect(within(members).getByRole('combobox', { name: 'Role of Bob' })).toHaveValue('Editor');
    expect(within(members).getByText('Not signed in here')).toBeInTheDocument();
    // The only owner can neither leave nor be demoted.
    expect(within(members).getByRole('button', { name: 'Leave Ann' })).toBeDisabled();
    const invitations = screen.getByRole('table', { name: 'Pending invitations' });
    expect(within(invitations).getByText('cat@example.com')).toBeInTheDocument();
    expect(within(invitations).getByText('Viewer')).toBeInTheDocument();
  });

  it('keeps an admin away from owners', async () => {
    mockApi('GET /api/team/all', team([member('ann', 'owner'), member('cat', 'admin', { you: true }), member('dan', 'reader')]));
    renderApp('/settings/team', makeUser({ permission: 'admin' }));
    const members = await screen.findByRole('table', { name: 'Members' });
    expect(within(members).getByRole('combobox', { name: 'Role of Ann' })).toBeDisabled();
    expect(within(members).getByRole('button', { name: 'Remove Ann' })).toBeDisabled();
    expect(within(members).getByRole('button', { name: 'Remove Dan' })).toBeEnabled();
    // The invite form does not offer the owner role to an admin.
    await userEvent.click(screen.getByRole('combobox', { name: 'Role' }));
    expect(screen.queryByRole('option', { name: 'Owner' })).not.toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'Admin' })).toBeInTheDocument();
  });

  it('invites by email with a role and says what the server refuses', async () => {
    mockApi('GET /api/team/all', team([member('ann', 'owner', { you: true })]));
    mockApi('POST /api/team/one/bob%40example.com/reader', fail(409, 'ALREADY_A_MEMBER'));
    mockApi(
      'POST /api/team/one/eve%40example.com/reader',
      { status: 201, body: { status: 201, message: 'Request success', result: { item: { id: 'i9', email: 'eve@example.com', role: 'reader', invitedBy: 'ann@example.com', createdAt: 1, expiresAt: 2, expired: false } } } },
    );
    renderApp('/settings/team', makeUser());
    const form = await screen.findByRole('form', { name: 'Invite a teammate' });
    await userEvent.click(within(form).getByRole('combobox', { name: 'Role' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Viewer' }));
    await userEvent.type(within(form).getByRole('textbox', { name: 'Email' }), 'bob@example.com');
    await userEvent.click(within(form).getByRole('button', { name: 'Invite' }));
    expect(await within(form).findAllByText('This person is already a member of the workspace')).not.toHaveLength(0);
    const email = within(form).getByRole('textbox', { name: 'Email' });
    await userEvent.clear(email);
    await userEvent.type(email, 'eve@example.com');
    await userEvent.click(within(form).getByRole('button', { name: 'Invite' }));
    expect(await screen.findByText('Invitation sent to eve@example.com')).toBeInTheDocument();
    expect(callsTo('POST /api/team/one/eve%40example.com/reader')).toHaveLength(1);
  });

  it('changes a role, and removes selected members in bulk after a confirmation', async () => {
    mockApi('GET /api/team/all', team([member('ann', 'owner', { you: true }), member('bob', 'writer'), member('dan', 'reader')]));
    mockApi('PATCH /api/team/one/bob', ok({ item: member('bob', 'admin') }));
    mockApi('DELETE /api/team/many', ok({ deleted: 2, revokedInvitations: [] }));
    renderApp('/settings/team', makeUser());
    const members = await screen.findByRole('table', { name: 'Members' });
    await userEvent.click(within(members).getByRole('combobox', { name: 'Role of Bob' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Admin' }));
    expect(await screen.findByText('Role of Bob changed to Admin')).toBeInTheDocument();
    expect(callsTo('PATCH /api/team/one/bob')[0]?.body).toEqual({ role: 'admin' });

    await userEvent.click(within(members).getByRole('checkbox', { name: 'Select Bob' }));
    await userEvent.click(within(members).getByRole('checkbox', { name: 'Select Dan' }));
    const bar = screen.getByTestId('team-bulk-bar');
    expect(within(bar).getByText('2 members selected')).toBeInTheDocument();
    await userEvent.click(within(bar).getByRole('button', { name: 'Remove selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove from the team?' });
    expect(within(dialog).getByText('Bob, Dan will lose access to this workspace at once.')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('2 members removed')).toBeInTheDocument();
    expect(callsTo('DELETE /api/team/many')[0]?.body).toEqual({ ids: ['bob', 'dan'] });
  });

  it('refuses a bulk removal that would take the last owner, and shows server refusals', async () => {
    mockApi('GET /api/team/all', team([member('ann', 'owner', { you: true }), member('bob', 'writer')]));
    mockApi('DELETE /api/team/one/member/bob', fail(403, 'An admin cannot change an owner'));
    renderApp('/settings/team', makeUser());
    const members = await screen.findByRole('table', { name: 'Members' });
    await userEvent.click(within(members).getByRole('checkbox', { name: 'Select all members' }));
    expect(within(screen.getByTestId('team-bulk-bar')).getByRole('button', { name: 'Remove selected' })).toBeDisabled();
    await userEvent.click(within(screen.getByTestId('team-bulk-bar')).getByRole('button', { name: 'Clear selection' }));
    await userEvent.click(within(members).getByRole('button', { name: 'Remove Bob' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('An admin cannot change an owner')).toBeInTheDocument();
  });

  it('shows expired invitations as Expired, after the pending ones, to resend or revoke', async () => {
    const pending = { id: 'i1', email: 'cat@example.com', role: 'reader', invitedBy: null, createdAt: 1, expiresAt: 1764824800, expired: false };
    const expired = { id: 'i2', email: 'dan@example.com', role: 'writer', invitedBy: null, createdAt: 2, expiresAt: 1764000000, expired: true };
    mockApi('GET /api/team/all', team([member('ann', 'owner', { you: true })], [expired, pending]));
    mockApi('POST /api/team/one/dan%40example.com/writer', { status: 201, body: { status: 201, message: 'Request success', result: { item: { ...expired, expired: false } } } });
    renderApp('/settings/team', makeUser());
    const table = await screen.findByRole('table', { name: 'Pending invitations' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[0]?.textContent)).toEqual(['cat@example.com', 'dan@example.com']);
    expect(within(rows[1]!).getByText('Expired')).toBeInTheDocument();
    expect(within(rows[0]!).queryByText('Expired')).not.toBeInTheDocument();
    expect(within(rows[1]!).getByRole('button', { name: 'Revoke dan@example.com' })).toBeEnabled();
    await userEvent.click(within(rows[1]!).getByRole('button', { name: 'Resend dan@example.com' }));
    expect(await screen.findByText('Invitation sent again to dan@example.com')).toBeInTheDocument();
    expect(callsTo('POST /api/team/one/dan%40example.com/writer')).toHaveLength(1);
  });

  it('resends and revokes invitations', async () => {
    const invitation = { id: 'i1', email: 'cat@example.com', role: 'reader', invitedBy: null, createdAt: 1, expiresAt: 2, expired: false };
    mockApi('GET /api/team/all', team([member('ann', 'owner', { you: true })], [invitation]));
    mockApi('POST /api/team/one/cat%40example.com/reader', { status: 201, body: { status: 201, message: 'Request success', result: { item: invitation } } });
    mockApi('DELETE /api/team/one/invitation/i1', ok({ deleted: 1, revokedInvitations: ['cat@example.com'] }));
    renderApp('/settings/team', makeUser());
    await userEvent.click(await screen.findByRole('button', { name: 'Resend cat@example.com' }));
    expect(await screen.findByText('Invitation sent again to cat@example.com')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Revoke cat@example.com' }));
    expect(await screen.findByText('Invitation of cat@example.com revoked')).toBeInTheDocument();
  });
});
