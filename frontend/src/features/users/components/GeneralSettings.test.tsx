import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { makeUser } from '@/test/fixtures';
import { callsTo, fail, mockApi, ok } from '@/test/fetch-mock';
import { renderApp } from '@/test/render';

describe('general settings', () => {
  it('shows the name, email and the role as the spec names it', async () => {
    renderApp('/settings/general', makeUser({ permission: 'writer' }));
    expect(await screen.findByText('Ann Lee')).toBeInTheDocument();
    expect(screen.getByText('ann@example.com')).toBeInTheDocument();
    expect(screen.getByText('Editor')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Change password' })).toHaveAttribute('href', '/settings/password');
  });

  it('lets a long email wrap only after its @ and dots, never mid-word (issue 42)', async () => {
    const email = 'a.very.long.address.for.someone@subdomain.example-company.com';
    renderApp('/settings/general', makeUser({ email }));
    const value = await screen.findByTestId('account-email');
    expect(value).toHaveTextContent(email);
    expect(value).not.toHaveStyle({ overflowWrap: 'anywhere' });
    // The break opportunities: after each '.' and the '@'.
    expect(value.querySelectorAll('wbr')).toHaveLength(email.match(/[@.]/g)!.length);
  });

  it('saves the alternative invoice email', async () => {
    mockApi('POST /api/users/changeValue', ok({ item: makeUser({ alternativeInvoiceEmail: 'billing@example.com' }) }));
    renderApp('/settings/general', makeUser());
    await userEvent.type(await screen.findByRole('textbox', { name: 'Alternative invoice email' }), 'billing@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Changes saved')).toBeInTheDocument();
    expect(callsTo('POST /api/users/changeValue')[0]?.body).toEqual({ alternativeInvoiceEmail: 'billing@example.com' });
  });

  it('sends an emptied address as null and checks the format', async () => {
    mockApi('POST /api/users/changeValue', ok({ item: makeUser() }));
    renderApp('/settings/general', makeUser({ alternativeInvoiceEmail: 'old@example.com' }));
    const input = await screen.findByRole('textbox', { name: 'Alternative invoice email' });
    await userEvent.clear(input);
    await userEvent.type(input, 'nope');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Enter a valid email address')).toBeInTheDocument();
    await userEvent.clear(input);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo('POST /api/users/changeValue')[0]?.body).toEqual({ alternativeInvoiceEmail: null }));
  });

  describe('the workspace name (issue 42 item 17)', () => {
    const workspace = { id: 'w1', name: "Olga Owner's workspace", role: 'owner', current: true };
    const other = { id: 'w2', name: 'Agency', role: 'reader', current: false };

    it('lets an owner rename the workspace, the switcher following', async () => {
      mockApi('GET /api/workspaces/all', ok({ items: [workspace, other] }), ok({ items: [{ ...workspace, name: 'Olga Apps' }, other] }));
      mockApi('PATCH /api/workspaces/current', ok({ item: { ...workspace, name: 'Olga Apps' } }));
      renderApp('/settings/general', makeUser({ permission: 'owner' }));
      const form = await screen.findByRole('form', { name: 'Workspace name' });
      const input = within(form).getByRole('textbox', { name: 'Workspace name' });
      await waitFor(() => expect(input).toHaveValue("Olga Owner's workspace"));
      await userEvent.clear(input);
      await userEvent.type(input, 'Olga Apps');
      await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
      expect(await screen.findByText('Workspace renamed')).toBeInTheDocument();
      expect(callsTo('PATCH /api/workspaces/current')[0]?.body).toEqual({ name: 'Olga Apps' });
    });

    it("shows the server's message under the field when it refuses the name", async () => {
      mockApi('GET /api/workspaces/all', ok({ items: [{ ...workspace, role: 'admin' }] }));
      mockApi('PATCH /api/workspaces/current', fail(400, 'At most 100 characters', [{ field: 'name', message: 'At most 100 characters' }]));
      renderApp('/settings/general', makeUser({ permission: 'admin' }));
      const form = await screen.findByRole('form', { name: 'Workspace name' });
      const input = within(form).getByRole('textbox', { name: 'Workspace name' });
      await waitFor(() => expect(input).toHaveValue("Olga Owner's workspace"));
      await userEvent.type(input, ' '.repeat(1) + 'x'.repeat(90));
      await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(input).toHaveAccessibleDescription(/At most 100 characters/));
    });

    it('shows editors and viewers the name read-only', async () => {
      mockApi('GET /api/workspaces/all', ok({ items: [{ ...workspace, role: 'writer' }] }));
      renderApp('/settings/general', makeUser({ permission: 'writer' }));
      const card = await screen.findByTestId('workspace-name');
      expect(card).toHaveTextContent("Olga Owner's workspace");
      expect(card).toHaveTextContent('Owners and admins can rename the workspace');
      expect(within(card).queryByRole('textbox')).not.toBeInTheDocument();
    });
  });
});
