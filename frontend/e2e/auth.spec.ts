/** Register → signed in → sign out → log in → a reload keeps the session. */
import type { Page } from '@playwright/test';
import { expect, test } from './contract';
import { skipUpsells } from './helpers';

const password = 'e2e secret password';

function newEmail() {
  return `e2e-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** Signed in without an ad account: the app lands on the API connection screen. */
async function expectSignedIn(page: Page, email: string) {
  await expect(page).toHaveURL(/\/oauth_v2$/);
  await expect(page.getByRole('heading', { name: 'Connect your Apple Ads account' })).toBeVisible();
  await page.goto('/settings/general');
  await expect(page.getByText(email, { exact: true })).toBeVisible();
}

test('a new user registers, signs out, logs in and stays signed in across a reload', async ({ page }) => {
  const email = newEmail();
  // The new workspace's Pro-trial offer would stand in front of the sign-out button.
  await skipUpsells(page);

  await page.goto('/register');
  await page.getByLabel('Full name').fill('E2E User');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Repeat password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Account was created')).toBeVisible();
  await expectSignedIn(page, email);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByText('Sign out complete')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expectSignedIn(page, email);

  await page.reload();
  await expect(page).toHaveURL(/\/settings\/general$/);
  await expect(page.getByText(email, { exact: true })).toBeVisible();
});

test('a wrong password shows the server message', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Email').fill(newEmail());
  await page.getByLabel('Password', { exact: true }).fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Login or password doesnt match');
});

test('a signed-out visitor of a protected page is sent to login with a redirect', async ({ page }) => {
  await page.goto('/settings/general');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fsettings%2Fgeneral$/);
});

test('a signed-out page load logs no console error (no relogin without a sign of a session)', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  const relogins: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/auth/relogin') relogins.push(request.url());
  });
  await page.goto('/settings/general');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fsettings%2Fgeneral$/);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  expect(relogins).toEqual([]);
  expect(errors).toEqual([]);
});
