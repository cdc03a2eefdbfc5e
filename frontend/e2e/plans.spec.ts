/**
 * Plans in the built app against `searchdeck serve` (issue 26, docs/api/plans.md,
 * docs/screens/subscription.md): a new workspace's owner is offered the Pro trial in a modal,
 * closes it, opens Account Settings › Subscription (free plan, no trial, free limits), starts
 * the 14-day Pro trial there and sees the success message, the plan, trial, limits and
 * purchases change, and no second trial. A reader of a workspace is told to contact their
 * admin and is sent to /restricted from the subscription page. A trial's last 72 hours and
 * its end, seen by moving the workspace's plan clock (`PUT /api/plan/testClock`, beside the
 * sandbox only; per workspace, so the other tests on this server are not moved, and put back
 * at the end). Each step is a screenshot.
 */
import { expect, test } from './contract';
import { password, register, setRole, shot } from './helpers';

test('an owner opens Settings › Subscription and starts the Pro trial', async ({ page }, info) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await register(page, 'e2e-plans', { upsell: true });
  await page.goto('/settings/general');

  // The new free workspace is offered the trial once; Later stores the offer as seen.
  const offer = page.getByRole('dialog', { name: 'Try Pro for 14 days' });
  await expect(offer).toBeVisible();
  await expect(offer.getByRole('button', { name: 'Start trial' })).toBeEnabled();
  await shot(page, info, 'plans-01-trial-offer');
  await offer.getByRole('button', { name: 'Later' }).click();
  await expect(offer).toBeHidden();

  // Settings › Subscription from the settings sections; the header's upgrade button shows
  // elsewhere and not here.
  const upgrade = page.getByRole('banner').getByRole('link', { name: 'Upgrade' });
  await expect(upgrade).toBeVisible();
  await page.getByRole('tab', { name: 'Subscription' }).click();
  await expect(page).toHaveURL(/\/settings\/subscription$/);
  await expect(page.getByTestId('plan-name')).toHaveText('Pro (free)');
  await expect(page.getByTestId('trial-status')).toHaveText('No trial yet');
  await expect(page.getByTestId('spend-card')).toContainText('$0.00');
  await expect(page.getByTestId('spend-card')).toContainText('$10 000.00');
  await expect(page.getByTestId('limit-apps')).toHaveText('0 / 5');
  await expect(page.getByText('No purchases yet.')).toBeVisible();
  // Until billing exists the upgrade entry is the operator's command for this workspace.
  await expect(page.getByTestId('upgrade-command')).toContainText('searchdeck plans set --workspace ');
  await expect(upgrade).toBeHidden();
  await expect(page.getByTestId('plan-banner')).toHaveCount(0);
  await shot(page, info, 'plans-02-subscription-free');

  // The trial: the message of docs/product.md#8-trial-and-purchase-messages, then the plan as the
  // server now answers it.
  await page.getByRole('button', { name: 'Start 14-day Pro trial' }).click();
  await expect(page.getByText('Congratulations! Your 14-day Pro Plan trial has begun')).toBeVisible();
  await expect(page.getByTestId('plan-name')).toHaveText('Pro trial');
  await expect(page.getByTestId('trial-status')).toHaveText('Trial running');
  await expect(page.getByTestId('plan-end')).toContainText('14 days left');
  await expect(page.getByTestId('limit-apps')).toHaveText('0 / 35');
  await expect(page.getByTestId('limit-rulesCampaigns')).toHaveText('0 / 200');
  const row = page.getByTestId('purchases').getByRole('row').filter({ hasText: 'Pro trial' });
  await expect(row).toContainText('Active');
  await expect(page.getByRole('button', { name: 'Start 14-day Pro trial' })).toHaveCount(0);
  await expect(page.getByTestId('trial-text')).toContainText('Your Pro trial is running until');
  await shot(page, info, 'plans-03-trial-started');

  // It holds across a reload; 14 days before its end no banner or modal applies, and the
  // workspace cannot have a second trial.
  await page.reload();
  await expect(page.getByTestId('plan-name')).toHaveText('Pro trial');
  const current = await page.request.get('/api/plan/current');
  const answer = ((await current.json()) as { result: { plan: string; banner: unknown; modal: unknown } }).result;
  expect(answer).toMatchObject({ plan: 'pro_trial', banner: null, modal: null });
  const again = await page.request.get('/api/pay/giveMeTrial', { headers: { 'X-Searchdeck-Client': 'web' } });
  expect(again.status()).toBe(409);
  await page.goto('/settings/general');
  await expect(page.getByRole('heading', { name: 'General' })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByTestId('plan-banner')).toHaveCount(0);
});

test('a reader is told to contact their admin and cannot open Subscription', async ({ page }, info) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const email = await register(page, 'e2e-plans-reader', { upsell: true });
  expect(setRole(email, 'reader')).toContain(`${email} is reader in workspace`);
  await page.goto('/settings/general');

  const offer = page.getByRole('dialog', { name: 'Try Pro for 14 days' });
  await expect(offer).toContainText('Please contact your admin to start the trial');
  await expect(offer.getByRole('button', { name: 'Start trial' })).toBeDisabled();
  await shot(page, info, 'plans-04-reader-offer');
  await offer.getByRole('button', { name: 'Later' }).click();
  await expect(offer).toBeHidden();

  await expect(page.getByRole('tab', { name: 'General' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Subscription' })).toHaveCount(0);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Upgrade' })).toHaveCount(0);
  await page.goto('/settings/subscription');
  await expect(page).toHaveURL(/\/restricted$/);
});

const DAY = 24 * 3600 * 1000;

test('the Pro trial’s last 72 hours and its end show their banners', async ({ page }, info) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const email = await register(page, 'e2e-plans-clock', { upsell: true });
  const moveClock = async (offsetMs: number) => {
    const res = await page.request.put('/api/plan/testClock', { data: { offsetMs } });
    expect(res.status()).toBe(200);
  };
  try {
    await page.goto('/settings/subscription');
    await page.getByRole('button', { name: 'Start 14-day Pro trial' }).click();
    await expect(page.getByTestId('plan-name')).toHaveText('Pro trial');
    await expect(page.getByTestId('plan-banner')).toHaveCount(0);

    // 11.5 days on, 60 hours are left: the ending banner with its Upgrade button, and the
    // 3-days modal once.
    await moveClock(11.5 * DAY);
    await page.goto('/settings/general');
    const banner = page.getByTestId('plan-banner');
    await expect(banner).toHaveAttribute('data-type', 'proTrialEnding');
    await expect(banner).toContainText('Your Pro trial ends in less than 3 days.');
    await expect(banner.getByRole('link', { name: 'Upgrade' })).toBeVisible();
    const ending = page.getByRole('dialog', { name: 'Your Pro trial ends in 3 days' });
    await expect(ending).toBeVisible();
    await shot(page, info, 'plans-05-trial-ending');
    await ending.getByRole('button', { name: 'Later' }).click();
    await expect(ending).toBeHidden();

    // Days later the user signs in again (a sign-in shows one offer modal at most).
    await page.goto('/settings/general');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).not.toHaveURL(/\/login/);

    // Past the end the workspace is back on the free plan: the ended banner and modal.
    await moveClock(15 * DAY);
    await page.goto('/settings/subscription');
    await expect(page.getByTestId('plan-name')).toHaveText('Pro (free)');
    await expect(page.getByTestId('trial-status')).toHaveText('Trial ended');
    await expect(page.getByTestId('limit-apps')).toHaveText('0 / 5');
    await page.goto('/settings/general');
    await expect(banner).toHaveAttribute('data-type', 'proTrialEnd');
    await expect(banner).toContainText('Your Pro trial has ended.');
    const ended = page.getByRole('dialog', { name: 'Your Pro trial has ended' });
    await expect(ended).toBeVisible();
    await shot(page, info, 'plans-06-trial-ended');
    await ended.getByRole('button', { name: 'Later' }).click();

    // Closing the banner is remembered per type in this browser.
    await banner.getByRole('button', { name: 'Close banner' }).click();
    await expect(banner).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'General' })).toBeVisible();
    await expect(banner).toHaveCount(0);
  } finally {
    await moveClock(0);
  }
  const back = ((await (await page.request.get('/api/plan/current')).json()) as { result: { plan: string } }).result;
  expect(back.plan).toBe('pro_trial');
});
