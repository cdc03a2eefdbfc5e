import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { makeUser } from '@/test/fixtures';
import { callsTo, fail, mockApi, ok } from '@/test/fetch-mock';
import { renderApp } from '@/test/render';
import { initialPasswordMode } from './password-modes';

async function setNewPassword(password: string) {
  await userEvent.type(screen.getByLabelText(/^New password/), password);
  await userEvent.type(screen.getByLabelText('Repeat password'), password);
  await userEvent.click(screen.getByRole('button', { name: 'Save new password' }));
}

describe('password screen', () => {
  it('opens in the mode its route and query call for', () => {
    expect(initialPasswordMode('reset', '', false)).toBe('forgot');
    expect(initialPasswordMode('reset', 'ABCD2345', false)).toBe('recovery');
    expect(initialPasswordMode('change', 'ABCD2345', true)).toBe('recovery');
    expect(initialPasswordMode('change', '', true)).toBe('change');
    expect(initialPasswordMode('settings', '', true)).toBe('change');
  });

  it('forgot → recovery → successfullyChanged', async () => {
    mockApi('GET /api/auth/recoveryPassword', ok());
    mockApi('POST /api/auth/checkCode', ok({ valid: true }));
    mockApi('POST /api/auth/changePasswordByCode', ok());
    renderApp('/reset');
    await userEvent.type(await screen.findByLabelText('Email'), 'ann@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send recovery code' }));
    expect(await screen.findByText(/we have sent a recovery code/)).toBeInTheDocument();
    expect(callsTo('GET /api/auth/recoveryPassword')[0]?.url).toBe('/api/auth/recoveryPassword?email=ann%40example.com');

    await userEvent.type(screen.getByLabelText('Recovery code'), 'abcd2345');
    await setNewPassword('brand new secret');
    expect(await screen.findByRole('status')).toHaveTextContent('Your password has been changed.');
    expect(callsTo('POST /api/auth/checkCode')[0]?.body).toEqual({ code: 'ABCD2345' });
    expect(callsTo('POST /api/auth/changePasswordByCode')[0]?.body).toEqual({
      code: 'ABCD2345',
      newPassword: 'brand new secret',
      repeatPassword: 'brand new secret',
    });
    expect(screen.getByRole('link', { name: 'Go to sign in' })).toHaveAttribute('href', '/login');
  });

  it('prefills the code from the link and shows an unusable code', async () => {
    mockApi('POST /api/auth/checkCode', fail(400, 'The code is invalid or has expired'));
    renderApp('/change?code=ZZZZ2222');
    expect(await screen.findByLabelText('Recovery code')).toHaveValue('ZZZZ2222');
    await setNewPassword('brand new secret');
    expect(await screen.findByRole('alert')).toHaveTextContent('The code is invalid or has expired');
    expect(callsTo('POST /api/auth/changePasswordByCode')).toHaveLength(0);
  });

  it('changes the password of a signed-in user', async () => {
    mockApi('POST /api/auth/changePassword', ok());
    renderApp('/settings/password', makeUser());
    await userEvent.type(await screen.findByLabelText(/^Current password/), 'old secret 1');
    await setNewPassword('new secret 22');
    expect(await screen.findByRole('status')).toHaveTextContent('Your password has been changed.');
    expect(callsTo('POST /api/auth/changePassword')[0]?.body).toEqual({
      oldPassword: 'old secret 1',
      newPassword: 'new secret 22',
      repeatPassword: 'new secret 22',
    });
  });

  it('routes a server field error to its field', async () => {
    mockApi('POST /api/auth/changePassword', fail(400, 'Wrong password', [{ field: 'oldPassword', message: 'Wrong password' }]));
    renderApp('/settings/password', makeUser());
    await userEvent.type(await screen.findByLabelText(/^Current password/), 'old secret 1');
    await setNewPassword('new secret 22');
    await waitFor(() => expect(screen.getByLabelText(/^Current password/)).toHaveAccessibleDescription('Wrong password'));
  });
});
