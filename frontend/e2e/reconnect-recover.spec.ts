/**
 * Issue 20, items 5 and 6 in the browser: connecting the same Apple Ads user again under
 * another name says it was already connected and renamed (never 'New account added'), and
 * the recovery email's absolute link opens the reset screen with its code.
 */
import { expect, test } from './contract';
import { answerConsent, connectSandbox, lastEmailTo, password, register, shot } from './helpers';

test('reconnecting under another name says what happened', async ({ page }, info) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await register(page, 'e2e-reconnect');
  await connectSandbox(page, 'First name');
  await page.goto('/oauth_v2');
  await page.getByLabel('Account name').fill('Second name');
  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Continue with Apple' }).click();
  const popup = await popupOpened;
  await answerConsent(popup, 'Allow');
  await expect(page.getByText('This Apple Ads user is already connected as \u201cFirst name\u201d; its name was updated to \u201cSecond name\u201d')).toBeVisible();
  await expect(page.getByText('New account added')).toHaveCount(0);
  await shot(page, info, 'reconnect-renamed');
});

test('the recovery email links to the reset screen by an absolute address', async ({ page, baseURL }, info) => {
  test.setTimeout(60_000);
  const email = await register(page, 'e2e-recover');
  await expect(page).toHaveURL(/\/oauth_v2$/);
  // Sign out from the header's account menu (the connect screen's only way out).
  await page.getByTestId('account-selector').click();
  await page.getByTestId('account-popover').getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/reset');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send recovery code' }).click();
  await expect(page.getByText('If an account exists for this email, we have sent a recovery code to it.')).toBeVisible();
  await expect.poll(() => lastEmailTo(email), { timeout: 20_000 }).not.toBeNull();
  const body = lastEmailTo(email)!.body;
  const link = /(https?:\/\/\S+\/reset\?code=\w+)/.exec(body)?.[1];
  expect(link, body).toBeDefined();
  expect(new URL(link!).origin).toBe(new URL(baseURL!).origin);
  await page.goto(link!);
  await expect(page.getByLabel('Recovery code')).toHaveValue(new URL(link!).searchParams.get('code')!);
  await page.getByLabel('New password').fill(`${password} 2`);
  await page.getByLabel('Repeat password').fill(`${password} 2`);
  await shot(page, info, 'recover-by-link');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByText('Your password has been changed.')).toBeVisible();
});
