/**
 * The activity log in the built app against `searchdeck serve` and its sandbox (issue 25,
 * docs/api/activity.md, docs/screens/activity.md): once the connect's sync has stored the
 * entities, quick-edit a keyword's bid in the table, open the activity log from the sidebar,
 * find the change by searching its campaign's name (the name marked in the result), open it
 * (read, its changes in the drawer, the CSV of them), follow a link to it, undo it, and find
 * the old bid in the keywords table again. Each step is saved as a screenshot.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './contract';
import { connectSandbox, register, reloadUntil, shot } from './helpers';

/** Reloads until the connect's sync has stored rows with links on this level. */
const untilLinks = (page: Page) => reloadUntil(page, page.getByTestId('report-table').getByRole('link').first());

/** Reloads until the level's table has rows. */
const untilRows = (page: Page) => reloadUntil(page, page.getByTestId('report-table').locator('tbody tr').first());

/** The first number in a money text ("$1 234.50" → 1234.5). */
function amountOf(text: string): number {
  return Number(text.replace(/[^\d.]/g, ''));
}

/** A regular expression matching `amount` with two decimals, as the table and the log show it. */
const shown = (amount: number) => new RegExp(amount.toFixed(2).replace('.', '\\.'));

test('edits a bid, finds it in the activity log, opens it, undoes it and sees the old bid', async ({ page }, info) => {
  test.setTimeout(600_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await register(page, 'e2e-activity');
  await connectSandbox(page, 'Activity account');

  // Down to an ad group's keywords, keeping the campaign's name.
  const table = page.getByTestId('report-table');
  await table.getByRole('link', { name: 'Cloud Apps' }).click();
  // The campaigns level, not the campaign groups' table still on screen.
  await expect(page.getByTestId('breadcrumbs')).toContainText('Cloud Apps');
  await expect(page.getByRole('heading', { name: 'Campaigns' })).toBeVisible();
  await untilLinks(page);
  const campaignLink = table.getByRole('link').first();
  const campaign = (await campaignLink.textContent())!.trim();
  expect(campaign.length).toBeGreaterThan(0);
  // By its name: the rows may reorder meanwhile (the sync's metrics arrive after the entities).
  await table.getByRole('link', { name: campaign, exact: true }).click();
  await expect(page.getByRole('tab', { name: 'Ad groups', selected: true })).toBeVisible();
  await expect(page.getByTestId('breadcrumbs')).toContainText(campaign);
  await untilLinks(page);
  await table.getByRole('link').first().click();
  await expect(page.getByRole('tab', { name: 'Keywords', selected: true })).toBeVisible();
  await untilRows(page);
  const keywordsUrl = page.url();

  // The quick edit: the first keyword's bid raised by 0.37.
  const firstBid = table.getByRole('button', { name: /^Edit Bid: / }).first();
  const label = (await firstBid.getAttribute('aria-label'))!;
  const keyword = label.replace(/^Edit Bid: /, '');
  const before = amountOf((await firstBid.textContent()) ?? '0');
  const next = (Math.round(before * 100) + 37) / 100;
  await firstBid.click();
  const input = table.getByRole('textbox', { name: `Bid: ${keyword}` });
  await input.fill(next.toFixed(2));
  await input.press('Enter');
  await expect(table.getByRole('button', { name: label })).toHaveText(shown(next));
  await shot(page, info, 'activity-01-bid-edited');

  // The activity log from the sidebar; a fresh load shows the unread count on its entry.
  await page.getByRole('link', { name: 'Activity Log' }).click();
  await expect(page).toHaveURL(/\/activity-log$/);
  await page.reload();
  await expect(page.getByRole('link', { name: 'Activity Log' }).getByTestId('unread-badge')).toBeVisible();
  const today = page.getByRole('region', { name: 'Today' });
  await expect(today.getByRole('article').first()).toBeVisible();
  await shot(page, info, 'activity-02-log');

  // Found by its campaign's name, the name marked in the result.
  await page.getByRole('textbox', { name: 'Search by campaign name' }).fill(`  ${campaign.toLowerCase()} `);
  const item = today.getByRole('article').filter({ hasText: keyword }).filter({ hasText: shown(next) }).filter({ hasText: 'E2E Accounts' }).first();
  await expect(item).toBeVisible();
  await expect(item.getByTestId('notification-campaign').locator('mark').first()).toHaveText(campaign);
  await expect(item.getByTestId('notification-who')).toContainText('E2E Accounts');
  await expect(item.getByTestId('notification-change')).toContainText(`${keyword} · Bid:`);
  await expect(item.getByTestId('notification-change')).toContainText(shown(before));
  await expect(page.getByRole('navigation', { name: 'Type of change' }).getByTestId('count-manual_change')).not.toHaveText('0');
  await shot(page, info, 'activity-03-found');

  // Opened: clicked it is read; its changes entity by entity, and their CSV.
  await expect(item).toHaveAttribute('data-unread', 'true');
  await item.getByTestId('notification-when').click();
  await expect(item).not.toHaveAttribute('data-unread');
  await item.getByRole('button', { name: 'Details' }).click();
  const drawer = page.getByRole('dialog', { name: /^Changes/ });
  const changeRow = drawer.getByRole('row').filter({ hasText: keyword });
  await expect(changeRow).toContainText('Bid');
  await expect(changeRow).toContainText(shown(before));
  await expect(changeRow).toContainText(shown(next));
  await shot(page, info, 'activity-04-details');
  const downloading = page.waitForEvent('download');
  await drawer.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^searchdeck-activity-.+\.csv$/);
  const csv = readFileSync(await download.path(), 'utf8').replace(/^\ufeff/, '').split('\r\n');
  expect(csv[0]).toBe('Date,Level,Entity,Entity ID,Campaign,Campaign ID,Ad group ID,Field,Old value,New value,Currency');
  expect(csv.filter((line) => line.includes(keyword) && line.includes('KEYWORD'))).toHaveLength(1);
  await drawer.getByRole('button', { name: 'Close' }).click();
  await expect(drawer).toBeHidden();

  // A link to it (`?notificationId=`) opens the log scrolled to it, then drops the query.
  const testId = (await item.getAttribute('data-testid'))!;
  await page.goto(`/activity-log?notificationId=${encodeURIComponent(testId.replace(/^notification-/, ''))}`);
  await expect(page.getByTestId(testId)).toBeInViewport();
  await expect(page).toHaveURL(/\/activity-log$/);
  await expect(page.getByTestId(testId)).not.toHaveAttribute('data-highlighted');
  await page.getByRole('textbox', { name: 'Search by campaign name' }).fill(campaign);
  // The search is sent once typing pauses, and the list reloads (skeletons) for it: the
  // marked name says the searched list is the one shown before anything in it is clicked.
  await expect(item.getByTestId('notification-campaign').locator('mark').first()).toHaveText(campaign);

  // Undone after a confirmation, the task followed to its end.
  await item.getByRole('button', { name: 'Undo' }).click();
  const confirm = page.getByRole('dialog', { name: 'Undo this change' });
  await confirm.getByRole('button', { name: 'Undo change' }).click();
  await expect(page.getByText(/^Undo finished\./)).toBeVisible({ timeout: 180_000 });
  // The original is marked undone, and the undo itself is listed.
  await expect(today.getByRole('article').filter({ hasText: keyword }).filter({ hasText: 'Undone' }).first()).toBeVisible({ timeout: 30_000 });
  await shot(page, info, 'activity-05-undone');

  // The old bid is back in the table.
  await page.goto(keywordsUrl);
  await untilRows(page);
  await expect(table.getByRole('button', { name: label })).toHaveText(shown(before), { timeout: 30_000 });
  await shot(page, info, 'activity-06-old-bid');
});
