/**
 * Automated rules in the built app against `searchdeck serve` and its sandbox (issue 24,
 * docs/api/rules.md): before connecting, the sandbox is told that one keyword of the
 * account spent without an install yesterday (`PUT /sandbox/keywords/{id}/metrics`), so the
 * test does not depend on the date the sandbox's data is seeded for; once the connect's sync
 * has stored that day, write a rule that
 * pauses a campaign's keywords which spent without an install yesterday, preview
 * it (entity by entity, nothing sent), save it, run it now, find the previewed keyword paused
 * in the keywords table, and undo the run from its history: the keyword is active again; in
 * the campaigns table, the Rules column shows the rule on the campaign and detaches it there.
 * Each step is saved as a screenshot.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './contract';
import { connectSandbox, keywordSpendingWithoutInstallsYesterday, register, reloadUntil, shot, type SandboxKeyword } from './helpers';

/** The input labelled `label` within `scope` (Mantine labels a select's option list too). */
function input(scope: Locator | Page, label: string): Locator {
  return scope.getByRole('textbox', { name: label }).or(scope.getByRole('combobox', { name: label })).first();
}

/** `text` as a regular expression matching itself. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The row of keyword `keyword` of campaign `campaign` in a rule's items table (`scope`). */
function itemRow(scope: Locator, page: Page, keyword: string, campaign: string): Locator {
  return scope
    .locator('tbody tr')
    .filter({ has: page.getByRole('cell', { name: keyword, exact: true }) })
    .filter({ has: page.getByRole('cell', { name: new RegExp(`^${literal(campaign)} / `) }) })
    .first();
}

/** From the campaigns table at `campaignUrl`, the keywords of `keyword`'s ad group. */
async function openKeywordsOf(page: Page, campaignUrl: string, keyword: SandboxKeyword) {
  const table = page.getByTestId('report-table');
  await page.goto(campaignUrl);
  await table.getByRole('link', { name: keyword.campaign, exact: true }).click();
  await expect(page.getByTestId('breadcrumbs')).toContainText(keyword.campaign);
  await table.getByRole('link', { name: keyword.adGroup, exact: true }).click();
  await expect(page.getByRole('tab', { name: 'Keywords', selected: true })).toBeVisible();
  await expect(page.getByTestId('breadcrumbs')).toContainText(keyword.adGroup);
}

/** Opens the select labelled `label` within `scope` and picks `option`. */
async function pick(page: Page, scope: Locator | Page, label: string, option: string) {
  await input(scope, label).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('writes, previews, runs and undoes a rule that pauses keywords spending without installs', async ({ page }, info) => {
  test.setTimeout(600_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await register(page, 'e2e-rules');
  // One keyword that spent without an install yesterday, whatever the date.
  const spender = await keywordSpendingWithoutInstallsYesterday('Cloud Apps');
  await connectSandbox(page, 'Rules account');

  // The campaign group's campaigns once the first sync (entities, then metrics) is done.
  const table = page.getByTestId('report-table');
  await expect(page.getByTestId('report-last-synced')).not.toHaveText(/Not synced yet|Syncing/, { timeout: 300_000 });
  await table.getByRole('link', { name: 'Cloud Apps' }).click();
  await expect(page.getByTestId('breadcrumbs')).toContainText('Cloud Apps');
  await reloadUntil(page, table.getByRole('link').first());
  await expect(page.getByTestId('report-last-synced')).not.toHaveText(/Not synced yet|Syncing/, { timeout: 300_000 });
  const campaignUrl = page.url();

  // The rule: keywords of that campaign with spend > 0 and no installs over the last 7 days → pause.
  await page.getByRole('link', { name: 'Automated Rules' }).click();
  await expect(page).toHaveURL(/\/auto-rules/);
  await page.getByRole('link', { name: 'Create rule' }).or(page.getByRole('button', { name: 'Create rule' })).first().click();
  await page.getByLabel('Rule name').fill('E2E pause spenders without installs');
  await page.getByRole('radio', { name: 'Keywords' }).check();
  // Every campaign of the group.
  await input(page, 'Campaigns').click();
  const options = page.getByRole('option');
  await expect(options.first()).toBeVisible();
  for (const name of await options.allTextContents()) {
    if (name.trim()) await page.getByRole('option', { name: name.trim(), exact: true }).click();
  }
  await page.keyboard.press('Escape');
  const group = page.getByRole('region', { name: 'Group 1' });
  // A new condition reads "Spend >": its value only.
  await group.getByLabel('Condition 1: Value').fill('0');
  await group.getByRole('button', { name: 'Add condition' }).click();
  await pick(page, group, 'Condition 2: Metric', 'Installs');
  await pick(page, group, 'Condition 2: Operator', '=');
  await group.getByLabel('Condition 2: Value').fill('0');
  // Yesterday's figures: the sandbox's recent installs arrive late, as Apple's do.
  await page.getByRole('textbox', { name: 'Days', exact: true }).fill('1');
  await page.getByRole('button', { name: 'Add action' }).click();
  await page.getByRole('menuitem', { name: 'Pause' }).click();
  await shot(page, info, 'rules-01-form');

  // Preview: what it would change now, nothing sent.
  await page.getByRole('button', { name: 'Preview' }).click();
  const preview = page.getByRole('region', { name: 'Preview: what the rule would change now' });
  await expect(preview.getByTestId('preview-summary')).toBeVisible({ timeout: 60_000 });
  // The keyword the sandbox was told about, among those previewed (its text may recur in
  // other ad groups: the one in its campaign; the column reads "campaign / ad group").
  const campaign = spender.campaign;
  const keyword = spender.text;
  const previewed = itemRow(preview, page, keyword, campaign);
  await expect(previewed).toBeVisible();
  const where = (await previewed.locator('td').nth(2).textContent())!;
  await shot(page, info, 'rules-02-preview');

  // Backtest over 30 days: the scheduled runs it replays and the entities it would have
  // changed, flat as the server sends them (issue 42: it read 'Bad Gateway').
  const days = page.getByLabel('Days back');
  await days.fill('30');
  await page.getByRole('button', { name: 'Backtest' }).click();
  const backtest = page.getByRole('region', { name: 'Backtest: what the rule would have changed' });
  await expect(backtest.getByTestId('backtest-summary')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText('Bad Gateway')).toHaveCount(0);
  await expect(backtest.getByRole('table', { name: 'Scheduled runs' }).getByRole('row')).not.toHaveCount(1);
  await expect(backtest.getByTestId('backtest-note')).not.toBeEmpty();
  const entities = backtest.getByRole('table', { name: 'Entities it would have changed' });
  await expect(entities.getByRole('row').nth(1)).toBeVisible();
  await expect(entities.getByRole('row').nth(1)).toContainText('Keyword');
  await backtest.scrollIntoViewIfNeeded();
  await shot(page, info, 'rules-02b-backtest');

  // Save, then run it now from the list.
  await page.getByRole('button', { name: 'Save rule' }).click();
  await expect(page).toHaveURL(/\/auto-rules$/);
  const row = page.getByRole('row').filter({ hasText: 'E2E pause spenders without installs' });
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: 'Actions of E2E pause spenders without installs' }).click();
  await page.getByRole('menuitem', { name: 'Run now' }).click();
  await expect(page.getByText('E2E pause spenders without installs has run')).toBeVisible({ timeout: 180_000 });
  await expect(row).toContainText(/[1-9]\d* applied/, { timeout: 30_000 });
  await shot(page, info, 'rules-03-ran');

  // The previewed keyword is paused in its ad group's keywords table.
  await openKeywordsOf(page, campaignUrl, spender);
  const keywordRow = table.locator('tbody tr').filter({ hasText: spender.id });
  await expect(keywordRow).toContainText(/Paused/i, { timeout: 30_000 });
  await shot(page, info, 'rules-04-keyword-paused');

  // Undo from the run history: the keyword is active again.
  await page.getByRole('link', { name: 'Automated Rules' }).click();
  await row.getByRole('button', { name: 'Actions of E2E pause spenders without installs' }).click();
  await page.getByRole('menuitem', { name: 'History' }).click();
  await expect(page.getByText('Run history')).toBeVisible();
  await page.getByRole('button', { name: 'Details' }).first().click();
  const details = page.getByRole('dialog', { name: 'Run details' });
  // The entity's campaign and ad group by name, as the preview showed them.
  await expect(itemRow(details, page, keyword, campaign)).toContainText(where.trim());
  await shot(page, info, 'rules-05-run-details');
  // On a narrower window the drawer stays below nothing and its table scrolls within it.
  await page.setViewportSize({ width: 1024, height: 700 });
  // Measured once the drawer has settled at the new width (it slides in and follows resizes).
  await expect
    .poll(async () => {
      const box = await details.boundingBox();
      return box && { y: box.y, right: box.x + box.width <= 1024 };
    })
    .toEqual({ y: 0, right: true });
  await shot(page, info, 'rules-05b-run-details-narrow');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByRole('dialog', { name: 'Run details' }).getByRole('button', { name: 'Undo' }).click();
  await page.getByRole('button', { name: 'Undo run' }).click();
  await expect(page.getByText('The run is undone')).toBeVisible({ timeout: 180_000 });
  await shot(page, info, 'rules-06-undone');
  await openKeywordsOf(page, campaignUrl, spender);
  await expect(table.locator('tbody tr').filter({ hasText: spender.id })).not.toContainText(/Paused/i, { timeout: 30_000 });
  await shot(page, info, 'rules-07-keyword-active');

  // From the campaigns table: the Rules column lists the rule on the campaign; detaching it
  // there leaves the campaign without it.
  await page.goto(campaignUrl);
  await page.getByRole('button', { name: /^Columns/ }).click();
  const columns = page.getByRole('dialog', { name: 'Edit columns' });
  await columns.getByRole('checkbox', { name: 'Rules', exact: true }).check();
  await columns.getByLabel('Save as preset').check();
  await columns.getByLabel('Preset name').fill('With rules');
  await columns.getByRole('button', { name: 'Apply' }).click();
  await expect(columns).toBeHidden();
  const campaignRow = table.locator('tbody tr').filter({ has: page.getByRole('link', { name: campaign, exact: true }) });
  await expect(campaignRow.getByTestId('rules-cell')).toContainText('E2E pause spenders without installs');
  await campaignRow.getByRole('button', { name: `Rules of ${campaign}` }).click();
  const rulesForm = page.getByRole('form', { name: `Rules of ${campaign}` });
  await rulesForm.getByRole('checkbox', { name: 'E2E pause spenders without installs' }).uncheck();
  await shot(page, info, 'rules-08-campaign-rules');
  await rulesForm.getByRole('button', { name: 'Save' }).click();
  await expect(campaignRow.getByTestId('rules-cell')).toBeHidden({ timeout: 30_000 });
});
