import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { makeUser } from '@/test/fixtures';
import { hasSessionHint } from '../api/session-hint';
import { callsTo, fail, mockApi, ok } from '@/test/fetch-mock';
import { renderApp } from '@/test/render';

async function fill(label: string | RegExp, value: string) {
  await userEvent.type(screen.getByLabelText(label), value);
}

describe('a session ended by a removal (issue 42 item 16)', () => {
  const removed = () =>
    fail(401, "You were removed from Olga's workspace by Olga Owner", [], { reason: 'REMOVED_FROM_WORKSPACE', workspace: "Olga's workspace", by: 'Olga Owner' });

  it('takes an open session to sign-in with who removed them from which workspace', async () => {
    mockApi('GET /api/account/getAll', removed());
    renderApp('/settings/general', makeUser());
    const note = await screen.findByTestId('session-ended');
    expect(note).toHaveTextContent("You were removed from Olga's workspace by Olga Owner.");
    expect(note).toHaveTextContent('Sign in to open your own workspace');
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('says so after a reload too (the relogin answers the removal)', async () => {
    window.localStorage.setItem('searchdeck:session', '1');
    mockApi('GET /api/auth/relogin', removed());
    renderApp('/settings/general');
    expect(await screen.findByTestId('session-ended')).toHaveTextContent("You were removed from Olga's workspace by Olga Owner.");
  });

  it('says nothing on a plain sign-in page', async () => {
    renderApp('/login');
    await screen.findByRole('button', { name: 'Sign in' });
    expect(screen.queryByTestId('session-ended')).not.toBeInTheDocument();
  });
});

describe('login form', () => {
  it('shows client validation messages and sends nothing', async () => {
    renderApp('/login');
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findAllByText('Please complete this field to continue')).toHaveLength(2);
    await fill('Email', 'not-an-email');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Enter a valid email address')).toBeInTheDocument();
    expect(callsTo('POST /api/auth/login')).toHaveLength(0);
  });

  it("shows the server's 401 message", async () => {
    mockApi('POST /api/auth/login', fail(401, 'Login or password doesnt match'));
    renderApp('/login');
    await screen.findByLabelText('Email');
    await fill('Email', 'ann@example.com');
    await fill('Password', 'wrong password');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Login or password doesnt match');
    expect(callsTo('POST /api/auth/login')[0]?.body).toEqual({ email: 'ann@example.com', password: 'wrong password' });
  });

  it('signs in and honours the redirect query', async () => {
    mockApi('POST /api/auth/login', ok({ item: makeUser() }));
    const { location } = renderApp('/login?redirect=%2Fsettings%2Fpassword');
    await screen.findByLabelText('Email');
    await fill('Email', 'ann@example.com');
    await fill('Password', 'correct horse');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(location()).toBe('/settings/password'));
    // The next page load relogs silently.
    expect(hasSessionHint()).toBe(true);
  });
});

describe('register form', () => {
  async function fillRegister(password: string, repeatPassword: string) {
    await screen.findByLabelText('Full name');
    await fill('Full name', 'Ann Lee');
    await fill('Email', 'ann@example.com');
    await fill(/^Password/, password);
    await fill('Repeat password', repeatPassword);
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
  }

  it('checks the password rules of the server', async () => {
    renderApp('/register');
    await fillRegister('short', 'short');
    expect(await screen.findByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(callsTo('POST /api/auth/register')).toHaveLength(0);
  });

  it('says when the passwords do not match', async () => {
    renderApp('/register');
    await fillRegister('long enough 1', 'long enough 2');
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
  });

  it('shows server field errors on their fields', async () => {
    mockApi(
      'POST /api/auth/register',
      fail(400, 'This email is already registered', [{ field: 'email', message: 'This email is already registered' }]),
    );
    renderApp('/register');
    await fillRegister('long enough 1', 'long enough 1');
    const email = screen.getByLabelText('Email');
    await waitFor(() => expect(email).toHaveAccessibleDescription('This email is already registered'));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('creates the account, says so and goes on signed in', async () => {
    mockApi('POST /api/auth/register', ok({ item: makeUser() }));
    const { location } = renderApp('/register');
    await fillRegister('long enough 1', 'long enough 1');
    expect(await screen.findByText('Account was created')).toBeInTheDocument();
    // No ad account yet: Ads Optimization sends a new user to the API connection screen.
    await waitFor(() => expect(location()).toBe('/oauth_v2'));
    expect(hasSessionHint()).toBe(true);
    expect(callsTo('POST /api/auth/register')[0]?.body).toEqual({
      fullName: 'Ann Lee',
      email: 'ann@example.com',
      password: 'long enough 1',
      repeatPassword: 'long enough 1',
      source: 'web',
    });
  });
});
