/**
 * Copies and negative keyword lists from the campaigns table (issue 23, docs/api/creation.md)
 * in the built app against `searchdeck serve` and its sandbox: duplicate a campaign with the
 * spec's default settings (one copy, paused) and find 'copy 1' in the table; make a negative
 * keyword list applied to a campaign and find its terms among the campaign's negative
 * keywords. Each step is saved as a screenshot.
 */
import { expect, test } from './contract';
import { connectSandbox, register, reloadUntil, shot } from './helpers';

test('duplicates a campaign and applies a negative keyword list from the campaigns table', async ({ page }, info) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await register(page, 'e2e-campaigns');
  await connectSandbox(page, 'Campaigns account');

  // The campaign group's campaigns, once the first sync has filled them.
  const table = page.getByTestId('report-table');
  await expect(page.getByTestId('report-last-synced')).not.toHaveText(/Not synced yet|Syncing/, { timeout: 300_000 });
  await table.getByRole('link', { name: 'Cloud Apps' }).click();
  await expect(page.getByTestId('breadcrumbs')).toContainText('Cloud Apps');
  await reloadUntil(page, table.getByRole('link').first());
  const rows = table.locator('tbody tr');
  const original = (await rows.first().getByRole('link').first().textContent())!.trim();

  // Duplicate: the spec's defaults, a task with progress, then the copy in the table, paused.
  await rows.first().getByRole('checkbox').check();
  await page.getByTestId('duplicate-campaigns').click();
  const modal = page.getByTestId('duplicate-modal');
  await expect(modal).toBeVisible();
  await expect(modal.getByRole('textbox', { name: 'Number of copies' })).toHaveValue('1');
  await shot(page, info, 'campaigns-01-duplicate-settings');
  await modal.getByRole('button', { name: 'Duplicate' }).click();
  await expect(modal).toContainText('Copies created', { timeout: 120_000 });
  await expect(modal.getByTestId('copy-names')).toContainText(`${original} copy 1`);
  await shot(page, info, 'campaigns-02-duplicated');
  await page.getByRole('button', { name: 'Close' }).first().click();
  const copy = rows.filter({ hasText: `${original} copy 1` });
  await expect(copy).toBeVisible();
  await expect(copy).toContainText(/Paused/i);
  await shot(page, info, 'campaigns-03-copy-in-table');

  // A negative keyword list applied to the copy.
  await page.getByTestId('negative-lists-button').click();
  const lists = page.getByRole('dialog', { name: 'Negative keyword lists' });
  await lists.getByRole('button', { name: 'New list' }).click();
  await lists.getByRole('textbox', { name: 'Name' }).fill('E2E junk terms');
  await lists.getByTestId('negative-list-keywords').fill('free download\ncheat codes');
  await lists.getByTestId('negative-list-campaigns').click();
  await page.getByRole('option', { name: `${original} copy 1` }).click();
  await page.keyboard.press('Escape');
  await shot(page, info, 'campaigns-04-negative-list');
  await lists.getByRole('button', { name: 'Save' }).click();
  await expect(lists.getByRole('button', { name: 'Edit: E2E junk terms' })).toBeVisible();
  await page.keyboard.press('Escape');

  // The copy's negative keywords hold the list's terms once the job has applied them.
  await copy.getByRole('link').first().click();
  await page.getByRole('tab', { name: 'Negative keywords' }).click();
  await expect(async () => {
    await page.reload();
    await expect(table).toContainText('free download', { timeout: 2_000 });
    await expect(table).toContainText('cheat codes', { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  await shot(page, info, 'campaigns-05-negatives-applied');
});
