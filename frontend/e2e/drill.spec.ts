/**
 * The optimisation drill-down in the built app against `searchdeck serve` and its sandbox:
 * connect an account, go from All accounts to the account's campaign groups, open a campaign
 * group's campaigns, then a campaign's ad groups and an
 * ad group's keywords, checking the address, the breadcrumbs and the level tabs; the date
 * range and the level live in the address and survive reload and back/forward. Before the
 * connect's sync has filled a level, it says so ('Not synced yet', the sync's progress in the
 * header); the walk waits for the synced rows and goes on by them. Every level is saved as a
 * screenshot.
 */
import { expect, test } from './contract';
import { connectSandbox, register, reloadUntil, shot } from './helpers';

test('drills from All accounts to campaign groups, campaigns, ad groups and keywords', async ({ page }, info) => {
  test.setTimeout(420_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await register(page, 'e2e-drill');
  await connectSandbox(page, 'Drill account');
  const orgsUrl = new URL(page.url()).pathname;

  // All accounts (optimization_accounts, the ACCOUNTS level): the account's row opens its
  // campaign groups (the ORGS level).
  await page.getByTestId('breadcrumbs').getByRole('link', { name: 'All accounts' }).click();
  await expect(page).toHaveURL(/\/optimization\/accounts$/);
  await expect(page.getByRole('heading', { name: 'All accounts' })).toBeVisible();
  const accountRow = page.getByTestId('report-table').getByRole('link', { name: 'Drill account' });
  await expect(accountRow).toBeVisible();
  await expect(page.getByTestId('report-table').getByRole('columnheader', { name: /Spend/ })).toBeVisible();
  await shot(page, info, 'drill-00-all-accounts');
  await accountRow.click();
  await expect(page).toHaveURL(new RegExp(`${orgsUrl}$`));
  await expect(page.getByRole('heading', { name: 'Drill account' })).toBeVisible();
  await expect(page.getByTestId('breadcrumbs')).toHaveText(/All accounts.*Drill account/);
  await shot(page, info, 'drill-00-campaign-groups');

  // The campaign group's name opens its campaigns (optimization_campaigns).
  await page.getByTestId('report-table').getByRole('link', { name: 'Cloud Apps' }).click();
  await expect(page).toHaveURL(new RegExp(`${orgsUrl}/\\d+$`));
  const campaignsUrl = new URL(page.url()).pathname;
  const crumbs = page.getByTestId('breadcrumbs');
  await expect(crumbs).toHaveText(/All accounts.*Drill account.*Cloud Apps/);
  await expect(crumbs.getByRole('link', { name: 'Drill account' })).toHaveAttribute('href', orgsUrl);
  await expect(page.getByRole('heading', { name: 'Campaigns' })).toBeVisible();
  await expect(page.getByTestId('date-range')).toContainText('Last 7 days');
  const table = page.getByTestId('report-table');
  const empty = page.getByTestId('empty-state');
  await expect(table.getByRole('link').first().or(empty)).toBeVisible();
  // Before the sync has stored the campaigns the level says so, with the sync's progress.
  if (await empty.isVisible()) {
    await expect(empty).toContainText('Not synced yet');
    await expect(empty).toContainText('has not been synced from Apple Ads yet');
    await expect(page.getByTestId('report-last-synced')).toHaveText(/Not synced yet|Syncing with Apple Ads: /);
  }
  await reloadUntil(page, table.getByRole('link').first());
  await shot(page, info, 'drill-01-campaigns');

  // To a campaign's ad groups by its row.
  await table.getByRole('link').first().click();
  await expect(page).toHaveURL(new RegExp(`${campaignsUrl}/campaign-id-\\d+/groups$`));
  const campaignUrl = new URL(page.url()).pathname.replace(/\/groups$/, '');
  await expect(crumbs).toHaveText(/All accounts.*Drill account.*Cloud Apps.+/);
  await expect(crumbs.getByRole('link', { name: 'Cloud Apps' })).toHaveAttribute('href', campaignsUrl);
  await expect(page.getByRole('tab', { name: 'Ad groups', selected: true })).toBeVisible();
  await expect(page.getByRole('tab')).toHaveText(['Ad groups', 'Keywords', 'Negative keywords', 'Search terms', 'Ads']);
  await reloadUntil(page, table.getByRole('link').first());
  await shot(page, info, 'drill-02-ad-groups');

  // The date range goes into the address and survives a reload.
  await page.getByTestId('date-range').click();
  await page.getByRole('option', { name: 'Yesterday' }).click();
  await expect(page).toHaveURL(/\/groups\?range=yesterday$/);
  await expect(page.getByTestId('date-range')).toContainText('Yesterday');
  await page.reload();
  await expect(page.getByTestId('date-range')).toContainText('Yesterday');
  // A custom range typed end first is swapped.
  await page.getByTestId('date-range').click();
  await page.getByLabel('Start date').fill('10/11/2026');
  await page.getByLabel('End date').fill('02/11/2026');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/\/groups\?start=2026-11-02&end=2026-11-10$/);
  await expect(page.getByTestId('date-range')).toContainText('02/11/2026 – 10/11/2026');
  await shot(page, info, 'drill-03-custom-range');

  // Level tabs change the address, keep the range, and back returns to the ad groups.
  await page.getByRole('tab', { name: 'Search terms' }).click();
  await expect(page).toHaveURL(new RegExp(`${campaignUrl}/searchterms\\?start=2026-11-02&end=2026-11-10$`));
  await expect(page.getByRole('heading', { name: 'Search terms' })).toBeVisible();
  await page.goBack();
  await expect(page.getByRole('tab', { name: 'Ad groups', selected: true })).toBeVisible();
  await page.goForward();
  await expect(page.getByRole('tab', { name: 'Search terms', selected: true })).toBeVisible();

  // To an ad group's keywords by its row.
  await page.getByRole('tab', { name: 'Ad groups' }).click();
  await reloadUntil(page, table.getByRole('link').first());
  await table.getByRole('link').first().click();
  await expect(page).toHaveURL(new RegExp(`${campaignUrl}/ad-group-id-\\d+/keywords`));
  await expect(crumbs).toHaveText(/All accounts.*Drill account.*Cloud Apps.+\/.+/);
  await expect(page.getByRole('tab')).toHaveText(['Keywords', 'Search terms', 'Ads', 'Negative keywords']);
  await expect(page.getByRole('tab', { name: 'Keywords', selected: true })).toBeVisible();
  await reloadUntil(page, table.locator('tbody tr').first());
  await expect(table.getByRole('button', { name: /^Edit Bid: / }).first()).toBeVisible();
  await shot(page, info, 'drill-04-ad-group-keywords');

  // The breadcrumbs lead back up.
  await crumbs.getByRole('link', { name: 'Cloud Apps' }).click();
  await expect(page).toHaveURL(new RegExp(`${campaignsUrl}(\\?.*)?$`));
  await expect(page.getByRole('heading', { name: 'Campaigns' })).toBeVisible();
});
