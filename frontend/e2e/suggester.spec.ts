/**
 * The keyword suggester in the built app against `searchdeck serve` and its sandbox (issue
 * 22, docs/api/suggester.md): connect an account, open Keyword Suggester from the sidebar,
 * pick one of the campaign group's apps and a country, start collecting, stop the
 * collection (confirmed), start again, follow the phases to the keyword table, reload (the
 * saved place brings step 2 back), select keywords and carry them to step 3. Each step is
 * saved as a screenshot.
 *
 * Written against the contract before the server routes landed: it needs the suggester's
 * routes and the `collect-keywords` job served.
 */
import { expect, test } from '@playwright/test';
import { connectSandbox, register, shot } from './helpers';

test('collects keywords for a sandbox app and leaves step 2 with a selection', async ({ page }, info) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await register(page, 'e2e-suggester');
  await connectSandbox(page, 'Suggester account');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Keyword Suggester' }).click();
  await expect(page).toHaveURL(/\/keyword-suggester$/);
  await expect(page.getByRole('heading', { name: 'Keyword Suggester' })).toBeVisible();
  const start = page.getByRole('button', { name: 'Start collecting keywords' });
  await expect(start).toBeDisabled();
  await expect(page.getByTestId('wizard-hint')).toHaveText('Select app and country');

  // Step 1: the campaign group's first app, the United States.
  await page.getByTestId('app-picker').click();
  await page.getByRole('option').first().click();
  await page.getByTestId('country-picker').click();
  await page.getByTestId('country-picker').fill('United States');
  await page.getByRole('option', { name: 'United States (US)' }).click();
  await expect(start).toBeEnabled();
  await expect(page.getByTestId('wizard-hint')).toHaveText(/Estimated time: (5-20 min|\d+ min)/);
  await shot(page, info, 'suggester-01-search-parameters');

  // Start, then stop after the confirmation: back to step 1.
  await start.click();
  await expect(page.getByTestId('collecting')).toBeVisible();
  await expect(page.getByTestId('wizard-hint')).toHaveText('Keyword research in progress');
  await page.getByRole('button', { name: 'Stop' }).click();
  const stopDialog = page.getByRole('dialog');
  await expect(stopDialog).toContainText('Are you sure you want to stop this task?');
  await stopDialog.getByRole('button', { name: 'Stop collection' }).click();
  await expect(start).toBeEnabled();

  // Start again and follow the phases to the end.
  await start.click();
  await expect(page.getByTestId('collect-phase')).toBeVisible();
  await shot(page, info, 'suggester-02-collecting');
  const table = page.getByTestId('keyword-table');
  await expect(table).toBeVisible({ timeout: 120_000 });
  await expect(page.getByTestId('keyword-counts')).toContainText('keywords');
  const next = page.getByRole('button', { name: 'Next step' });

  // The saved place survives a reload.
  await page.reload();
  await expect(table).toBeVisible({ timeout: 30_000 });

  // Select two keywords (the required ones come selected: none were given here).
  const clear = page.getByRole('button', { name: 'Clear selection' });
  if (await clear.isEnabled()) await clear.click();
  await expect(next).toBeDisabled();
  await expect(page.getByTestId('wizard-hint')).toHaveText('Select at least one keyword');
  // Row boxes only: the header's 'Select all shown' would take every keyword.
  const boxes = table.locator('tbody').getByRole('checkbox', { name: /^Select / });
  await boxes.nth(0).check();
  await boxes.nth(1).check();
  await expect(page.getByTestId('keyword-counts')).toContainText('2 selected');
  await expect(next).toBeEnabled();
  await shot(page, info, 'suggester-03-keyword-selection');

  // Step 3 receives the selection, split into segments.
  await next.click();
  const review = page.getByTestId('selection-review');
  await expect(review).toBeVisible();
  await expect(review.getByTestId('selection-count')).toHaveText('2 keywords');
  const segmentation = page.getByTestId('segmentation');
  await expect(segmentation.getByTestId('segment-keyword')).toHaveCount(2);
  await shot(page, info, 'suggester-04-segmentation');
});
