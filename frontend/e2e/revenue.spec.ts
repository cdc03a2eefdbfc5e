/**
 * Issue 44, what installs earn, in the browser (docs/screens/attribution.md, docs/screens/
 * rules.md): an owner connects a sandbox ad account and AppsFlyer by its postback URL, sends
 * a test event, then AppsFlyer's own messages for a keyword that spent: an install ten days
 * ago, a trial and a purchase the next day. The keywords table of its ad group shows the
 * tracked install, the revenue and ROAS D7 once those columns are added; a rule on ROAS D7
 * that moves bids toward a ROAS target, previewed, lists that keyword (its cohort matured)
 * and says which installs the cohort was judged on. Then App Store Connect: a key made as
 * Apple makes one (a P-256 .p8), known to the stand-in, connected from the card, its 30 days
 * of proceeds read; and a benchmark target set for one of the workspace's apps.
 */
import { generateKeyPairSync } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './contract';
import { connectSandbox, keywordWithMatureSpend, register, reloadUntil, sandboxUrl, setPlan, shot } from './helpers';

/** The input labelled `label` within `scope` (Mantine labels a select's option list too). */
function input(scope: Locator | Page, label: string): Locator {
  return scope.getByRole('textbox', { name: label }).or(scope.getByRole('combobox', { name: label })).first();
}

/** AppsFlyer's raw-data time: UTC `yyyy-mm-dd hh:mm:ss.sss`. */
const afTime = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');

test("AppsFlyer's install and revenue reach the keywords table, and a rule on ROAS D7 previews on them", async ({ page }, info) => {
  test.setTimeout(600_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await register(page, 'e2e-roas');
  await connectSandbox(page, 'ROAS account');
  const table = page.getByTestId('report-table');
  await expect(page.getByTestId('report-last-synced')).not.toHaveText(/Not synced yet|Syncing/, { timeout: 300_000 });
  // The campaign group's campaigns once the first sync is done.
  await table.getByRole('link', { name: 'Cloud Apps' }).click();
  await expect(page.getByTestId('breadcrumbs')).toContainText('Cloud Apps');
  await reloadUntil(page, table.getByRole('link').first());
  const groupUrl = page.url();
  const keyword = await keywordWithMatureSpend('Cloud Apps');

  // The sandbox account spends more than the free plan's limit, which locks the Conversions
  // columns (pro_limited): the operator puts the workspace on Growth, as billing would.
  await page.goto('/settings/subscription');
  const command = (await page.getByTestId('upgrade-command').textContent()) ?? '';
  const workspace = /--workspace (\S+)/.exec(command)?.[1];
  expect(workspace, command).toBeTruthy();
  setPlan(workspace!, 'growth');

  // AppsFlyer by its postback URL, with a test event first.
  await page.goto('/settings/integration?provider=appsflyer');
  await page.getByRole('button', { name: 'Connect AppsFlyer' }).click();
  const url = (await page.getByRole('region', { name: 'Your postback URL' }).getByTestId('new-url').textContent()) ?? '';
  expect(url).toContain('/api/attribution/postbacks/appsflyer/');
  await page.getByRole('button', { name: 'Send test event' }).click();
  const events = page.getByRole('table', { name: 'Recent events' });
  await expect(events.getByTestId('event-row').first()).toContainText('Test');

  // What AppsFlyer's Push API sends for the keyword's install, trial and purchase.
  const installed = Date.now() - 10 * 86_400_000;
  const message = (event: string, at: number, revenue?: string) => ({
    event_name: event,
    event_time: afTime(at),
    install_time: afTime(installed),
    appsflyer_id: `e2e-roas-${keyword.id}`,
    app_id: `id${keyword.adamId}`,
    media_source: 'Apple Search Ads',
    af_c_id: keyword.campaignId,
    af_adset_id: keyword.adGroupId,
    keyword_id: keyword.id,
    attributed_touch_type: 'click',
    conversion_type: 'install',
    country_code: 'US',
    ...(revenue ? { event_revenue: revenue, event_revenue_currency: keyword.currency } : {}),
  });
  for (const body of [message('install', installed), message('af_start_trial', installed + 3_600_000), message('af_purchase', installed + 86_400_000, '19.99')]) {
    const answer = await page.request.post(url, { data: body });
    expect(answer.status(), await answer.text()).toBe(200);
  }
  await expect(events.getByTestId('event-row').first()).toContainText('af_purchase', { timeout: 20_000 });
  await shot(page, info, 'roas-01-events');

  // The keywords table of its ad group over the last 30 days, with the Conversions and
  // Cohort columns added.
  await page.goto(groupUrl);
  await table.getByRole('link', { name: keyword.campaign, exact: true }).click();
  await expect(page.getByTestId('breadcrumbs')).toContainText(keyword.campaign);
  await table.getByRole('link', { name: keyword.adGroup, exact: true }).click();
  await expect(page.getByRole('tab', { name: 'Keywords', selected: true })).toBeVisible();
  await page.goto(`${page.url().split('?')[0]}?range=last30`);
  await page.getByRole('button', { name: /^Columns/ }).click();
  const columns = page.getByRole('dialog', { name: 'Edit columns' });
  for (const name of ['Tracked installs', 'Revenue', 'ROAS D7']) await columns.getByRole('checkbox', { name, exact: true }).check();
  await columns.getByLabel('Preset name').fill('What installs earn');
  await columns.getByRole('button', { name: 'Apply' }).click();
  await expect(columns).toBeHidden();
  const headers = await table.getByRole('columnheader').allTextContents();
  const at = (name: string) => headers.findIndex((h) => h.trim().startsWith(name));
  const row = table.locator('tbody tr').filter({ hasText: keyword.text }).first();
  await expect(row).toBeVisible();
  const cell = (name: string) => row.locator('td').nth(at(name));
  await expect(cell('Tracked installs')).toHaveText('1', { timeout: 30_000 });
  await expect(cell('Revenue')).toContainText('19.99');
  await expect(cell('ROAS D7')).toHaveText(/^\d[\d,.]* ?%$/);
  await shot(page, info, 'roas-02-keywords-table');

  // A rule on the keyword's campaign: where ROAS D7 is above 0 %, move bids toward a ROAS D7
  // of 50 %, over the last 30 days; previewed.
  await page.getByRole('link', { name: 'Automated Rules' }).click();
  await page.getByRole('link', { name: 'Create rule' }).or(page.getByRole('button', { name: 'Create rule' })).first().click();
  await page.getByLabel('Rule name').fill('E2E bids toward ROAS D7');
  await page.getByRole('radio', { name: 'Keywords' }).check();
  await input(page, 'Campaigns').click();
  await page.getByRole('option', { name: keyword.campaign, exact: true }).click();
  await page.keyboard.press('Escape');
  const group = page.getByRole('region', { name: 'Group 1' });
  await input(group, 'Condition 1: Metric').click();
  await page.getByRole('option', { name: 'ROAS D7', exact: true }).click();
  await group.getByLabel('Condition 1: Value').fill('0');
  await page.getByRole('textbox', { name: 'Days', exact: true }).fill('30');
  await page.getByRole('button', { name: 'Add action' }).click();
  await page.getByRole('menuitem', { name: 'Move bid toward a target' }).click();
  await input(page, 'Target').click();
  await page.getByRole('option', { name: 'ROAS D7', exact: true }).click();
  await page.getByRole('textbox', { name: 'Target amount' }).fill('50');
  await shot(page, info, 'roas-03-rule');

  await page.getByRole('button', { name: 'Preview' }).click();
  const preview = page.getByRole('region', { name: 'Preview: what the rule would change now' });
  await expect(preview.getByTestId('preview-summary')).toBeVisible({ timeout: 60_000 });
  await expect(preview.getByTestId('run-cohorts')).toContainText('ROAS D7');
  const item = preview.locator('tbody tr').filter({ has: page.getByRole('cell', { name: keyword.text, exact: true }) }).first();
  await expect(item).toBeVisible();
  await preview.scrollIntoViewIfNeeded();
  await shot(page, info, 'roas-04-preview');
});

test('an owner connects App Store Connect with a .p8 key, sees its proceeds, and sets benchmark targets for an app', async ({ page }, info) => {
  test.setTimeout(600_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await register(page, 'e2e-asc');
  await connectSandbox(page, 'Sales account');
  await expect(page.getByTestId('report-last-synced')).not.toHaveText(/Not synced yet|Syncing/, { timeout: 300_000 });

  // A key as App Store Connect issues one: a P-256 private key in a .p8 file, its public half
  // known to the stand-in, which answers the issuer and key ids and the vendor number.
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const registered = await fetch(`${sandboxUrl()}/sandbox/appstoreconnect/keys`, { method: 'POST', body: publicKey.export({ type: 'spki', format: 'pem' }).toString() });
  expect(registered.status).toBe(201);
  const ids = (await registered.json()) as { issuerId: string; keyId: string; vendorNumber: string };

  await page.goto('/settings/integrations');
  const card = page.getByTestId('app-store-connect-card');
  await card.getByRole('button', { name: 'Connect App Store Connect' }).click();
  await card.getByLabel('Issuer ID').fill(ids.issuerId);
  await card.getByLabel('Key ID').fill(ids.keyId);
  await card.getByLabel('Vendor number').fill(ids.vendorNumber);
  await card.locator('input[type="file"]').setInputFiles({ name: `AuthKey_${ids.keyId}.p8`, mimeType: 'application/pkcs8', buffer: Buffer.from(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()) });
  await card.getByRole('button', { name: 'Check and connect' }).click();
  const connection = card.getByTestId('app-store-connection');
  await expect(connection).toContainText(ids.keyId, { timeout: 30_000 });
  // The backfill reads 30 days of sales; the card shows them per app once read.
  const proceeds = connection.getByRole('table', { name: 'Last 30 days' });
  await expect(async () => {
    if (!(await proceeds.isVisible())) await page.reload();
    await expect(proceeds).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 180_000 });
  await expect(connection).toContainText('Active');
  await expect(connection.getByRole('table', { name: 'Last 30 days' }).getByRole('row').nth(1)).toBeVisible();
  await card.scrollIntoViewIfNeeded();
  await shot(page, info, 'asc-01-connected');

  // Benchmarks: the workspace's apps, one app's cost-per-install target beside the reference.
  await page.goto('/settings/benchmarks');
  const open = page.getByRole('link', { name: /^Set targets for / }).first();
  await expect(open).toBeVisible({ timeout: 30_000 });
  await shot(page, info, 'asc-02-benchmarks');
  await open.click();
  await expect(page).toHaveURL(/\/settings\/benchmarks\/app\?adamId=\d+/);
  const all = page.getByRole('textbox', { name: /^Cost per install \(\w+\), All countries$/ });
  // A whole amount is an amount in every currency (the app's may be yen).
  await all.fill('240');
  await page.getByRole('button', { name: 'Save targets' }).click();
  await expect(page.getByText('Targets saved')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('textbox', { name: /^Cost per install \(\w+\), All countries$/ })).toHaveValue('240');
  await page.getByRole('tab', { name: 'Revenue' }).click();
  await shot(page, info, 'asc-03-benchmark-app');
});
