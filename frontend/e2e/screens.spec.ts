/**
 * The optimisation screens' tools in the built app against `searchdeck serve` and its
 * sandbox: the daily chart draws once the sync has brought metrics (its metric chooser goes
 * into the address either way), a column preset is saved and drives the table's columns
 * across a reload, a name filter narrows the table from the address and is saved as a
 * filter preset (the tag filter is disabled while there are no tags), rows are selected,
 * and the filtered view is exported as CSV in its visible columns with the spec's money
 * format.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './contract';
import { connectSandbox, register, reloadUntil, shot } from './helpers';

/** Reloads until the connect's sync has stored the campaigns. */
const untilCampaigns = (page: Page) => reloadUntil(page, page.getByTestId('report-table').getByRole('link', { name: /Brand/ }).first());

/**
 * Waits for the first metrics of the campaign group, reloading now and then: a connect
 * queues a full sync (entities, then 90 days of reports) behind any other account's, so on
 * a busy run the chart may stay empty for minutes. The chart must draw within `ms`: the
 * walk asserts the synced data, it does not go on without it.
 */
async function untilMetrics(page: Page, ms: number) {
  const canvas = page.getByTestId('report-chart').locator('canvas');
  const deadline = Date.now() + ms;
  for (;;) {
    await expect(canvas.or(page.getByTestId('chart-empty'))).toBeVisible();
    if (await canvas.isVisible()) return;
    await expect(page.getByTestId('chart-empty')).toHaveText(/first sync|No data/);
    if (Date.now() > deadline) throw new Error(`no metrics drawn ${ms} ms after the campaigns arrived`);
    await page.waitForTimeout(5000);
    await page.reload();
  }
}

test('chart, column presets, filters, selection and CSV export', async ({ page }, info) => {
  test.setTimeout(600_000);
  await page.setViewportSize({ width: 1400, height: 900 });
  await register(page, 'e2e-screens');
  await connectSandbox(page, 'Screens account');
  await page.getByTestId('report-table').getByRole('link', { name: 'Cloud Apps' }).click();
  await expect(page.getByRole('heading', { name: 'Campaigns' })).toBeVisible();
  const table = page.getByTestId('report-table');
  // The campaigns arrive with the connect's first job (behind any other account's sync).
  await untilCampaigns(page);

  // The chart: the lazy uPlot chunk draws the two default metrics; choosing another metric
  // goes into the address and survives a reload.
  const chart = page.getByTestId('report-chart');
  const waited = Date.now();
  await untilMetrics(page, Number(process.env.E2E_METRICS_WAIT_MS ?? 420_000));
  info.annotations.push({ type: 'metrics', description: `chart drawn ${Date.now() - waited} ms after the campaigns arrived` });
  await expect(chart.locator('.u-legend')).toContainText('Spend');
  await expect(chart.locator('.u-legend')).toContainText('Installs (total)');
  await page.getByRole('combobox', { name: 'Left axis metric' }).click();
  await page.getByRole('option', { name: 'Taps', exact: true }).click();
  await expect(page).toHaveURL(/chart=taps%2CtotalInstalls/);
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Left axis metric' })).toHaveValue('Taps');
  await expect(chart.locator('.u-legend')).toContainText('Taps');
  await shot(page, info, 'screens-01-chart');

  // Column presets: the Default cannot be deleted; dropping Avg CPM from it saves a new
  // preset, which the table follows, also after a reload.
  await expect(table.getByRole('columnheader', { name: /Avg CPM/ })).toBeVisible();
  await page.getByRole('button', { name: 'Columns' }).click();
  const modal = page.getByRole('dialog', { name: 'Edit columns' });
  await expect(modal.getByRole('button', { name: 'Delete preset Default' })).toBeDisabled();
  await modal.getByRole('checkbox', { name: 'Avg CPM' }).uncheck();
  await expect(modal.getByText('The Default preset cannot be changed; save your columns as a new preset')).toBeVisible();
  await modal.getByRole('button', { name: 'Apply' }).click();
  await expect(modal.getByText('Please complete this field to continue')).toBeVisible();
  await modal.getByLabel('Preset name').fill('default');
  await expect(modal.getByText('A preset with this name already exists')).toBeVisible();
  await modal.getByLabel('Preset name').fill('Lean');
  await shot(page, info, 'screens-02-edit-columns');
  await modal.getByRole('button', { name: 'Apply' }).click();
  await expect(modal).toBeHidden();
  await expect(page.getByRole('button', { name: /Columns · Lean/ })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: /Avg CPM/ })).toBeHidden();
  await page.reload();
  await expect(table.getByRole('columnheader', { name: /Spend/ })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: /Avg CPM/ })).toBeHidden();

  // Filters: the tag filter is disabled without tags; a name filter goes into the address,
  // narrows the table, and is saved as a preset.
  const allRows = await table.locator('tbody tr').count();
  await page.getByRole('button', { name: 'Filters' }).click();
  const filters = page.getByRole('dialog', { name: 'Filters' });
  await filters.getByRole('button', { name: 'Add filter' }).click();
  await expect(filters.getByRole('menuitem', { name: 'Tag' })).toBeDisabled();
  await filters.getByRole('menuitem', { name: 'Tag' }).hover({ force: true });
  await expect(page.getByText("You don't have any tags yet. Create one to use the tag filter")).toBeVisible();
  await filters.getByRole('menuitem', { name: 'Name' }).click();
  await expect(filters.getByRole('button', { name: 'Apply' })).toBeDisabled();
  await filters.getByRole('textbox', { name: 'Value' }).fill('brand');
  await filters.getByRole('button', { name: 'Save as preset' }).click();
  await filters.getByLabel('Preset name').fill('Brands');
  await filters.getByRole('button', { name: 'Save preset' }).click();
  await expect(page.getByText('Filter preset saved')).toBeVisible();
  await shot(page, info, 'screens-03-filters');
  await filters.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/filters=/);
  await expect(page.getByTestId('filter-pills')).toContainText('Name contains “brand”');
  await expect(table.locator('tbody tr')).not.toHaveCount(allRows);
  const names = await table.locator('tbody tr td:nth-child(2)').allTextContents();
  expect(names.length).toBeGreaterThan(0);
  for (const name of names) expect(name.toLowerCase()).toContain('brand');
  const filteredRows = names.length;
  await page.reload();
  await expect(page.getByTestId('filter-pills')).toContainText('Name contains “brand”');
  await expect(table.locator('tbody tr')).toHaveCount(filteredRows);
  // The preset is offered on the next visit of the builder.
  await page.getByRole('button', { name: /Filters/ }).click();
  await expect(filters.getByTestId('filter-presets')).toContainText('Brands');
  await filters.getByRole('button', { name: 'Cancel' }).click();

  // Selection: one row, then the whole page.
  await table.locator('tbody tr').first().getByRole('checkbox').check();
  await expect(page.getByTestId('selection-count')).toContainText('1 selected');
  await table.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
  await expect(page.getByTestId('selection-count')).toContainText(`${filteredRows} selected`);
  await shot(page, info, 'screens-04-selection');

  // Export: every row of the filtered view in the preset's columns, numbers a spreadsheet reads.
  const total = Number((await page.getByTestId('row-range').textContent())?.match(/of ([\d ]+) rows/)?.[1]?.replace(/ /g, '') ?? '0');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'Export all rows' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^searchdeck-campaigns-\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync(await download.path(), 'utf8').replace(/^\ufeff/, '');
  const lines = csv.trimEnd().split('\r\n');
  expect(lines[0]).toMatch(/^Campaign,Currency,Status,/);
  expect(lines[0]).toContain('Spend');
  expect(lines[0]).not.toContain('Avg CPM');
  expect(lines).toHaveLength(total + 1);
  expect(total).toBe(filteredRows);
  for (const line of lines.slice(1)) expect(line.toLowerCase()).toContain('brand');
  // Money is a plain number (dot decimal, no sign or separator), its currency a column.
  expect(csv).toMatch(/^[^,]*,[A-Z]{3},/m);
  expect(csv).not.toMatch(/[€$£¥]|\d \d{3}/);
});
