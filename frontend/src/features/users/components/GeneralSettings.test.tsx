import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { makeUser } from '@/test/fixtures';
import { callsTo, mockApi, ok } from '@/test/fetch-mock';
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
});
