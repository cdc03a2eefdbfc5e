/**
 * Plans in the built app against `searchdeck serve` (issue 26, docs/api/plans.md,
 * docs/screens/subscription.md): a new workspace's owner is offered the Pro trial in a modal,
 * closes it, opens Account Settings › Subscription (free plan, no trial, free limits), starts
 * the 14-day Pro trial there and sees the success message, the plan, trial, limits and
 * purchases change, and no second trial. A reader of a workspace is told to contact their
 * admin and is sent to /restricted from the subscription page. Each step is a screenshot.
 */
import { expect, test } from '@playwright/test';
import { register, setRole, shot } from './helpers';

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
  await expect(page.getByTestId('limit-apps')).toHaveText('5');
  await expect(page.getByText('No purchases yet.')).toBeVisible();
  await expect(page.getByTestId('upgrade-disabled')).toBeDisabled();
  await expect(upgrade).toBeHidden();
  await expect(page.getByTestId('plan-banner')).toHaveCount(0);
  await shot(page, info, 'plans-02-subscription-free');

  // The trial: the message of spec §8, then the plan as the server now answers it.
  await page.getByRole('button', { name: 'Start 14-day Pro trial' }).click();
  await expect(page.getByText('Congratulations! Your 14-day Pro Plan trial has begun')).toBeVisible();
  await expect(page.getByTestId('plan-name')).toHaveText('Pro trial');
  await expect(page.getByTestId('trial-status')).toHaveText('Trial running');
  await expect(page.getByTestId('plan-end')).toContainText('14 days left');
  await expect(page.getByTestId('limit-apps')).toHaveText('35');
  await expect(page.getByTestId('limit-rulesCampaigns')).toHaveText('200');
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
  const again = await page.request.get('/api/pay/giveMeTrial');
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
