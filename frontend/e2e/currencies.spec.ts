/**
 * Several currencies on All accounts, in the built app against `searchdeck serve` and its
 * sandbox: the sandbox's Apple user has campaign groups billing in US dollars, euros and
 * yen, so the connected account's money is never added up. The totals row gets one "Total in
 * <currency>" row per currency and one chart per currency (its spend on axes in its own
 * money); choosing a
 * reporting currency (saved in the user's options) adds the totals converted at the
 * sandbox's stand-in reference rates, labelled with their date, and one converted chart
 * line. The legend shows the period's values while no day is hovered. The totals and the
 * chart are saved as screenshots (and to E2E_CURRENCY_SHOTS when set).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from '@playwright/test';
import { expect, test } from './contract';
import { connectSandbox, register, reloadUntil, shot } from './helpers';

/** Saves a screenshot of `target` to E2E_CURRENCY_SHOTS, when set. */
async function save(target: Locator, name: string) {
  const dir = process.env.E2E_CURRENCY_SHOTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await target.screenshot({ path: join(dir, `${name}.png`) });
}

test('All accounts shows per-currency subtotals, then money converted to the reporting currency', async ({ page }, info) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1400, height: 1000 });
  await register(page, 'e2e-currencies');
  await connectSandbox(page, 'Currency account');

  await page.goto('/optimization/accounts?range=last30');
  const table = page.getByTestId('report-table');
  const subtotals = table.getByTestId('subtotal-row');
  // The first sync fills the rows in; a syncing row says so rather than showing zeros.
  await reloadUntil(page, subtotals.first());
  await expect(subtotals).toHaveCount(3);
  // Every campaign group's numbers arrive while the page reads the syncing report again.
  await expect(table.getByTestId('row-syncing')).toHaveCount(0, { timeout: 180_000 });
  expect(await subtotals.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-currency')))).toEqual(['EUR', 'JPY', 'USD']);
  await expect(subtotals.nth(0)).toContainText('Total in EUR');
  await expect(subtotals.nth(0)).toContainText('€');
  await expect(subtotals.nth(1)).toContainText('¥');
  await expect(subtotals.nth(2)).toContainText('$');
  // The Total row itself adds no money across currencies.
  await expect(table.getByTestId('totals-row').getByTitle('Amounts in different currencies are not added up').first()).toHaveText('—');

  // The chart: one chart per currency, each with its spend line on an axis in its own money
  // (issue 42: never one currency's sign over another's amounts), and the period's values in
  // the legend while no day is hovered (no "—").
  const chart = page.getByTestId('report-chart');
  const groups = chart.getByTestId('report-chart-group');
  await expect(groups).toHaveCount(3);
  expect(await groups.evaluateAll((els) => els.map((e) => e.getAttribute('data-currency')))).toEqual(['EUR', 'JPY', 'USD']);
  for (const [i, currency] of ['EUR', 'JPY', 'USD'].entries()) {
    const legend = groups.nth(i).locator('.u-legend');
    await expect(legend).toContainText(`Spend · ${currency}`);
    for (const other of ['EUR', 'JPY', 'USD'].filter((c) => c !== currency)) await expect(legend).not.toContainText(`Spend · ${other}`);
  }
  // Each left axis reads in its chart's currency.
  await expect(groups.nth(1)).toContainText('¥');
  const usdLine = groups.nth(2).locator('.u-legend tr', { hasText: 'Spend · USD' });
  await expect(usdLine.locator('.u-value')).toHaveText(/^\$\d/);
  await page.waitForTimeout(500);
  await save(table, 'totals-per-currency');
  await save(chart, 'chart-per-currency');
  await shot(page, info, 'currencies-per-currency');

  // Choosing a reporting currency converts the totals and the chart, labelled as converted.
  const picker = page.getByRole('textbox', { name: 'Reporting currency' }).or(page.getByRole('combobox', { name: 'Reporting currency' }));
  await picker.first().click();
  await page.getByRole('option', { name: 'EUR · Euro' }).click();
  const converted = table.getByTestId('converted-row');
  await expect(converted).toBeVisible();
  await expect(converted).toContainText('≈ Total in EUR');
  await expect(converted).toContainText(/≈ €\d/);
  await expect(page.getByTestId('converted-note')).toHaveText(/^≈ converted to EUR at Searchdeck sandbox reference rates of \d\d\/\d\d\/\d{4}/);
  // Converted money is one chart again, in the reporting currency.
  await expect(groups).toHaveCount(1);
  const legend = chart.locator('.u-legend');
  await expect(legend).toContainText('Spend (≈ EUR)');
  await expect(legend.locator('tr', { hasText: 'Spend (≈ EUR)' }).locator('.u-value')).toHaveText(/^€\d/);
  await expect(chart.getByTestId('chart-converted')).toContainText('≈ converted to EUR');
  // The choice is the user's: it is still there after a reload.
  await page.reload();
  await expect(table.getByTestId('converted-row')).toBeVisible();
  await page.waitForTimeout(500);
  await save(table, 'totals-converted-eur');
  await save(chart, 'chart-converted-eur');
  await save(page.getByTestId('converted-note'), 'converted-note');
  await shot(page, info, 'currencies-converted');
});
