/**
 * The new user's walk (issue 20): register, connect the sandbox, tag keywords from the bulk
 * bar and from a row's tag cell, filter the table by the tag, try bids of -1 and 0 (refused
 * in the cell with the user's words, nothing sent), and export the CSV, read back as a
 * spreadsheet would: numbers plain, the currency a column of its own, ids as text. Each
 * changed screen is saved as a screenshot (E2E_SCREENSHOTS keeps copies).
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './contract';
import { connectSandbox, register, reloadUntil, shot } from './helpers';

/** Reloads until the level's table has rows. */
const untilRows = (page: Page) => reloadUntil(page, page.getByTestId('report-table').locator('tbody tr').first());

/**
 * The fields of one CSV line as RFC 4180 and spreadsheets read them: a quote opens a quoted
 * field only at the field's start (doubled inside it); elsewhere it is a character, so the id
 * formula `="772182579262523445"` reads back whole. No line breaks in fields here.
 */
function csvFields(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else field += c;
  }
  fields.push(field);
  return fields;
}

test('register, connect, tag, filter by tag, refuse bad bids, export a clean CSV', async ({ page }, info) => {
  test.setTimeout(600_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await register(page, 'e2e-walk');
  await connectSandbox(page, 'Walk account');

  // To an ad group's keywords. The campaign groups' table re-sorts when the first sync's
  // figures arrive, and a click while it does lands on whichever row has moved under the
  // pointer: wait for the sync to end, then check where the click went.
  const table = page.getByTestId('report-table');
  await expect(page.getByTestId('report-last-synced')).not.toHaveText(/Not synced yet|Syncing/, { timeout: 300_000 });
  await table.getByRole('link', { name: 'Cloud Apps' }).click();
  // The campaign group's campaigns, not the groups' table still on screen (its first link is
  // another group).
  await expect(page).toHaveURL(/\/optimization\/[^/]+\/\d+$/);
  await expect(page.getByTestId('breadcrumbs')).toContainText('Cloud Apps');
  await reloadUntil(page, table.getByRole('link').first());
  await table.getByRole('link').first().click();
  await expect(page.getByRole('tab', { name: 'Ad groups', selected: true })).toBeVisible();
  await reloadUntil(page, table.getByRole('link').first());
  await table.getByRole('link').first().click();
  await expect(page.getByRole('tab', { name: 'Keywords', selected: true })).toBeVisible();
  await untilRows(page);

  // Tag two keywords from the bulk bar: a new tag, created on both.
  const rows = table.locator('tbody tr');
  expect(await rows.count()).toBeGreaterThanOrEqual(3);
  await rows.nth(0).getByRole('checkbox').check();
  await rows.nth(1).getByRole('checkbox').check();
  const bar = page.getByTestId('bulk-edit-bar');
  const tagButton = bar.getByRole('button', { name: 'Tag' });
  await tagButton.click();
  const picker = page.getByTestId('tag-picker');
  await expect(picker).toBeVisible();
  // The picker opens under its button, not at the page's corner.
  const [button, dropdown] = [await tagButton.boundingBox(), await picker.boundingBox()];
  expect(dropdown!.y).toBeGreaterThan(button!.y);
  expect(Math.abs(dropdown!.x + dropdown!.width - (button!.x + button!.width))).toBeLessThan(320);
  await picker.getByRole('textbox', { name: 'Find or create a tag' }).fill('Walk brand');
  await picker.getByRole('radio', { name: 'Purple' }).click();
  await shot(page, info, 'walk-01-tag-picker-new');
  await picker.getByRole('button', { name: 'Create tag “Walk brand”' }).click();
  await expect(picker.getByRole('checkbox', { name: 'Walk brand' })).toBeChecked();
  await expect(rows.nth(0)).toContainText('Walk brand');
  await expect(rows.nth(1)).toContainText('Walk brand');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Clear' }).click();

  // A third keyword from its own tag cell.
  const third = rows.nth(2);
  await third.getByTestId('edit-tags').click();
  await expect(picker.getByRole('checkbox', { name: 'Walk brand' })).not.toBeChecked();
  await shot(page, info, 'walk-02-tag-cell-picker');
  // The box follows the server: ticked once the tag is on the row.
  await picker.getByRole('checkbox', { name: 'Walk brand' }).click();
  await expect(picker.getByRole('checkbox', { name: 'Walk brand' })).toBeChecked();
  await expect(third).toContainText('Walk brand');
  await page.keyboard.press('Escape');
  await shot(page, info, 'walk-03-tagged-rows');

  // Filter by the tag: the three tagged keywords only.
  await page.getByRole('button', { name: 'Filters' }).click();
  const filters = page.getByRole('dialog', { name: 'Filters' });
  await filters.getByRole('button', { name: 'Add filter' }).click();
  await filters.getByRole('menuitem', { name: 'Tag' }).click();
  await filters.getByRole('combobox', { name: 'Value' }).click();
  await page.getByRole('option', { name: 'Walk brand' }).click();
  await filters.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('totals-row')).toContainText('Total (3 rows)');
  await expect(rows).toHaveCount(3);
  await shot(page, info, 'walk-04-filtered-by-tag');

  // Bids of -1 and 0 are refused in the cell, in words, and keep their sign.
  const bid = table.getByRole('button', { name: /^Edit Bid: / }).first();
  const label = (await bid.getAttribute('aria-label'))!;
  const keyword = label.replace(/^Edit Bid: /, '');
  const before = await bid.textContent();
  await bid.click();
  const input = table.getByRole('textbox', { name: `Bid: ${keyword}` });
  await input.fill('-1');
  await input.press('Enter');
  await expect(table.getByRole('alert')).toHaveText('Bid cannot be negative');
  await expect(input).toHaveValue(/^-/);
  await shot(page, info, 'walk-05-bid-negative');
  await input.fill('0');
  await input.press('Enter');
  await expect(table.getByRole('alert')).toHaveText('Bid must be more than 0');
  await shot(page, info, 'walk-06-bid-zero');
  await input.press('Escape');
  await expect(table.getByRole('button', { name: label })).toHaveText(before!);

  // The bulk Amount refuses a negative amount as well.
  await rows.nth(0).getByRole('checkbox').check();
  await bar.getByRole('textbox', { name: 'Amount' }).fill('-5');
  await expect(bar).toContainText('Bid cannot be negative');
  await expect(bar.getByRole('button', { name: 'Apply to selected' })).toBeDisabled();
  await shot(page, info, 'walk-07-bulk-negative');
  await page.getByRole('button', { name: 'Clear' }).click();

  // Export: read back as a spreadsheet would.
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'Export all rows' }).click();
  const csv = readFileSync(await (await downloading).path(), 'utf8').replace(/^\ufeff/, '');
  const [head, ...lines] = csv.trimEnd().split('\r\n').map(csvFields);
  expect(lines).toHaveLength(3);
  const column = (name: string) => head!.indexOf(name);
  expect(column('Currency')).toBe(1);
  for (const line of lines) {
    expect(line[column('Currency')]).toMatch(/^[A-Z]{3}$/);
    expect(line[column('Keyword ID')]).toMatch(/^="\d+"$/);
    for (const name of ['Bid', 'Spend', 'Taps', 'Impressions']) {
      const value = line[column(name)]!;
      // A plain number (or empty for no data): no sign, no space, no dash.
      expect(value).toMatch(/^(-?\d+(\.\d+)?)?$/);
    }
    expect(line[column('Tag')]).toContain('Walk brand');
  }
});
