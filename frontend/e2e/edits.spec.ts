/**
 * Edits in the built app against `searchdeck serve` and its sandbox: after the connect's
 * sync has stored the entities, the walk drills from a campaign group to an ad group's
 * keywords (a screenshot of every level and tab), quick-edits a keyword's bid and finds it
 * after a reload, bulk-pauses two keywords and watches the task finish (here and in the
 * background-tasks popover), adds them as broad negatives of their ad group and finds them on
 * its negatives tab, and then, made a reader of its workspace (the operator's `searchdeck
 * members set-role`), finds every edit control disabled and a bid change sent anyway refused
 * by the server. (The 1,000-row timings are in perf.spec.ts, on the sandbox's mid-size world.)
 */
import type { Page } from '@playwright/test';
import { expect, test } from './contract';
import { connectSandbox, register, reloadUntil, setRole, shot } from './helpers';

/** Reloads until the connect's sync has stored rows with links on this level. */
const untilLinks = (page: Page) => reloadUntil(page, page.getByTestId('report-table').getByRole('link').first());

/** Reloads until the level's table has rows. */
const untilRows = (page: Page) => reloadUntil(page, page.getByTestId('report-table').locator('tbody tr').first());

/** The first number in a money text ("$1 234.50" → 1234.5). */
function amountOf(text: string): number {
  return Number(text.replace(/[^\d.]/g, ''));
}

test('drills every level, quick-edits a bid, bulk-pauses keywords, and a reader edits nothing', async ({ page }, info) => {
  test.setTimeout(600_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const email = await register(page, 'e2e-edits');
  await connectSandbox(page, 'Edits account');
  const started = Date.now();
  await page.getByTestId('report-table').getByRole('link', { name: 'Cloud Apps' }).click();
  const table = page.getByTestId('report-table');
  await untilLinks(page);
  info.annotations.push({ type: 'timing', description: `first campaigns table ${Date.now() - started} ms after the connect` });
  await expect(table.getByRole('button', { name: /^Edit Daily budget: / }).first()).toBeVisible();
  await shot(page, info, 'level-01-campaigns');

  // Drill: a campaign's tabs, then an ad group's.
  await table.getByRole('link').first().click();
  await expect(page.getByRole('tab', { name: 'Ad groups', selected: true })).toBeVisible();
  await untilLinks(page);
  await expect(table.getByRole('button', { name: /^Edit Default bid: / }).first()).toBeVisible();
  await shot(page, info, 'level-02-ad-groups');
  for (const [tab, name] of [
    ['Keywords', 'level-03-campaign-keywords'],
    ['Negative keywords', 'level-04-campaign-negative-keywords'],
    ['Search terms', 'level-05-campaign-search-terms'],
    ['Ads', 'level-06-campaign-ads'],
  ] as const) {
    await page.getByRole('tab', { name: tab, exact: true }).click();
    await expect(page.getByRole('tab', { name: tab, exact: true, selected: true })).toBeVisible();
    // The sandbox's every campaign has keywords, negatives (campaign and ad group), ads, and
    // search terms once its reports are synced: each tab shows the synced rows.
    await untilRows(page);
    await shot(page, info, name);
  }
  await page.getByRole('tab', { name: 'Ad groups' }).click();
  await untilLinks(page);
  await table.getByRole('link').first().click();
  await expect(page.getByRole('tab', { name: 'Keywords', selected: true })).toBeVisible();
  await untilRows(page);
  const keywordsUrl = page.url();

  // Quick edit: a new bid saved on Enter, shown at once and after a reload.
  const firstBid = table.getByRole('button', { name: /^Edit Bid: / }).first();
  const label = (await firstBid.getAttribute('aria-label'))!;
  const keyword = label.replace(/^Edit Bid: /, '');
  const before = amountOf((await firstBid.textContent()) ?? '0');
  const next = (Math.round(before * 100) + 37) / 100;
  await firstBid.click();
  const input = table.getByRole('textbox', { name: `Bid: ${keyword}` });
  await input.fill(next.toFixed(2));
  await shot(page, info, 'edit-01-bid-editing');
  await input.press('Enter');
  const cell = table.getByRole('button', { name: label });
  await expect(cell).toHaveText(new RegExp(next.toFixed(2).replace('.', '\\.')));
  await page.reload();
  await expect(table.getByRole('button', { name: label })).toHaveText(new RegExp(next.toFixed(2).replace('.', '\\.')));

  // Escape leaves the bid as it was.
  await table.getByRole('button', { name: label }).click();
  await table.getByRole('textbox', { name: `Bid: ${keyword}` }).fill('99');
  await table.getByRole('textbox', { name: `Bid: ${keyword}` }).press('Escape');
  await expect(table.getByRole('button', { name: label })).toHaveText(new RegExp(next.toFixed(2).replace('.', '\\.')));
  await shot(page, info, 'level-07-ad-group-keywords');

  // Bulk pause: two keywords, the task followed to its end.
  const rows = table.locator('tbody tr');
  expect(await rows.count()).toBeGreaterThanOrEqual(2);
  await rows.nth(0).getByRole('checkbox').check();
  await rows.nth(1).getByRole('checkbox').check();
  await expect(page.getByTestId('selection-count')).toContainText('2 selected');
  const bar = page.getByTestId('bulk-edit-bar');
  await bar.getByRole('button', { name: 'Pause' }).click();
  await expect(bar.getByTestId('bulk-task')).toBeVisible();
  await expect(bar.getByTestId('bulk-task')).toContainText('Bulk edit finished', { timeout: 60_000 });
  await expect(bar.getByTestId('bulk-counts')).toContainText(/[12] applied/);
  await expect(bar.getByTestId('bulk-counts')).toContainText('0 refused');
  await shot(page, info, 'edit-02-bulk-pause-finished');
  await expect(rows.nth(0).getByTestId('status-switch')).not.toBeChecked();
  await expect(rows.nth(1).getByTestId('status-switch')).not.toBeChecked();
  await page.getByRole('button', { name: 'Background tasks' }).click();
  const popover = page.getByRole('dialog', { name: 'Background tasks' });
  await expect(popover.getByTestId('task').filter({ hasText: 'applied' }).first()).toContainText('Done');
  await shot(page, info, 'edit-03-tasks-popover');
  await page.keyboard.press('Escape');

  // Negatives from the bulk-edit header: the two keywords added as broad negatives of their
  // ad group, the task followed to its end, then listed on the ad group's negatives tab.
  const texts = await Promise.all([0, 1].map(async (i) => (await rows.nth(i).getByRole('checkbox').getAttribute('aria-label'))!.replace(/^Select /, '')));
  await bar.getByRole('button', { name: 'Add as negatives' }).click();
  const form = page.getByTestId('negatives-form');
  await expect(form.getByTestId('negatives-count')).toHaveText('2 keywords to add');
  await form.getByText('Ad group', { exact: true }).click();
  await form.getByText('Broad', { exact: true }).click();
  await shot(page, info, 'edit-04-negatives-form');
  await form.getByRole('button', { name: 'Add negatives' }).click();
  await expect(bar.getByTestId('bulk-task')).toContainText('Add 2 negative keywords (broad)');
  await expect(bar.getByTestId('bulk-task')).toContainText('Bulk edit finished', { timeout: 60_000 });
  await expect(bar.getByTestId('bulk-counts')).toContainText('2 applied');
  await expect(bar.getByTestId('bulk-counts')).toContainText('0 refused');
  await shot(page, info, 'edit-05-negatives-finished');
  await page.getByRole('tab', { name: 'Negative keywords', exact: true }).click();
  await expect(page.getByRole('tab', { name: 'Negative keywords', exact: true, selected: true })).toBeVisible();
  for (const text of texts) {
    // The sandbox may hold an exact negative of the same text already: the new one is broad.
    await expect(table.locator('tbody tr').filter({ hasText: text.toLowerCase() }).filter({ hasText: 'BROAD' }).first()).toBeVisible();
  }
  await shot(page, info, 'edit-06-negatives-listed');

  // The user becomes a reader of the workspace: the same rows with every edit control
  // disabled, and a write sent anyway refused by the server.
  expect(setRole(email, 'reader')).toContain(`${email} is reader in workspace`);
  const readerReport = page.waitForResponse((r) => r.url().includes('/api/asa/reports') && r.request().method() === 'POST' && !r.request().postData()?.includes('"graph":true'));
  await page.goto(keywordsUrl);
  await untilRows(page);
  await expect(table.getByRole('button', { name: label })).toBeDisabled();
  await expect(rows.nth(0).getByTestId('status-switch')).toBeDisabled();
  await rows.nth(0).getByRole('checkbox').check();
  await expect(bar.getByRole('button', { name: 'Pause' })).toBeDisabled();
  await expect(bar.getByRole('button', { name: 'Apply to selected' })).toBeDisabled();
  await expect(bar.getByRole('button', { name: 'Add as negatives' })).toBeDisabled();
  await table.getByRole('button', { name: label }).hover({ force: true });
  await expect(page.getByText('Readers can see everything but change nothing').first()).toBeVisible();
  await shot(page, info, 'edit-07-reader');
  type KeywordRow = { keyword: string; keywordId: number; campaignId: number; adGroupId: number; cptBid: number };
  const row = ((await (await readerReport).json()) as { result: { items: KeywordRow[] } }).result.items.find((r) => r.keyword === keyword)!;
  expect(row).toBeDefined();
  const scope = new URL(keywordsUrl).pathname.split('/');
  const answer = await page.evaluate(
    async ({ path, body }) => {
      const response = await fetch(path, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      return { status: response.status, body: (await response.json()) as unknown };
    },
    {
      path: `/api/asa/keywords/update/${row.campaignId}/${row.adGroupId}?accountId=${scope[2]}&orgId=${scope[3]}`,
      body: { keywordId: row.keywordId, cptBid: String(row.cptBid + 1) },
    },
  );
  expect(answer).toEqual({ status: 403, body: { status: 403, message: 'Access restricted', errors: [] } });
  // Nothing changed: the keyword's bid is still the one set above.
  await page.reload();
  await expect(table.getByRole('button', { name: label })).toHaveText(new RegExp(next.toFixed(2).replace('.', '\\.')));
});

test('Settings › General keeps a long email clear of the role', async ({ page }, info) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  // A long address (the local part stays within the 64 characters an address allows).
  const email = await register(page, 'e2e-long-address-of-somebody-with-names');
  await expect(page).not.toHaveURL(/\/register/);
  await page.goto('/settings/general');
  const emailText = page.getByText(email, { exact: true });
  const role = page.getByText('Role', { exact: true });
  await expect(emailText).toBeVisible();
  await expect(role).toBeVisible();
  const a = (await emailText.boundingBox())!;
  const b = (await role.boundingBox())!;
  // The email stays inside its column: it ends before the role's column starts (or sits on
  // its own row on a narrow screen).
  expect(a.x + a.width <= b.x + 1 || a.y + a.height <= b.y + 1).toBe(true);
  // On one line at 1280 px: not wrapped mid-word (issue 42).
  const lineHeight = await emailText.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
  expect(a.height).toBeLessThan(lineHeight * 1.5);
  await shot(page, info, 'settings-general-long-email');

  // At 1920 px the settings pages use the page's width, like the other screens.
  await page.setViewportSize({ width: 1920, height: 1000 });
  for (const path of ['/settings/general', '/settings/team', '/settings/subscription']) {
    await page.goto(path);
    const settings = page.getByTestId('settings-page');
    await expect(settings).toBeVisible();
    // The main area's content box (its padding makes room for the sidebar).
    const content = await page.locator('main').evaluate((el) => {
      const style = getComputedStyle(el);
      return el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    });
    const box = (await settings.boundingBox())!;
    expect(box.width / content).toBeGreaterThan(0.95);
  }
  await page.goto('/settings/general');
  await shot(page, info, 'settings-general-1920');
});
