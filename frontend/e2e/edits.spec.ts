/**
 * Edits in the built app against `searchdeck serve` and its sandbox: after the connect's
 * sync has stored the entities, the walk drills from a campaign group to an ad group's
 * keywords (a screenshot of every level and tab), quick-edits a keyword's bid and finds it
 * after a reload, bulk-pauses two keywords and watches the task finish (here and in the
 * background-tasks popover), and then, signed in as a reader, finds every edit control
 * disabled. A second test times a 1,000-row keywords page (render, idle frames, scroll
 * frames, long tasks) with the Performance API and reports the figures as annotations.
 */
import { expect, test, type Page } from '@playwright/test';
import { connectSandbox, register, reloadUntil, shot } from './helpers';

/** Reloads until the connect's sync has stored rows with links on this level. */
const untilLinks = (page: Page) => reloadUntil(page, page.getByTestId('report-table').getByRole('link').first());

/** Reloads until the level's table has rows. */
const untilRows = (page: Page) => reloadUntil(page, page.getByTestId('report-table').locator('tbody tr').first());

/** Shows the signed-in user as a reader (the session answer rewritten in the browser). */
async function actAsReader(page: Page) {
  await page.route('**/api/auth/relogin', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { result: { item: { permission: string } } };
    body.result.item.permission = 'reader';
    await route.fulfill({ response, json: body });
  });
}

/** The first number in a money text ("$1 234.50" → 1234.5). */
function amountOf(text: string): number {
  return Number(text.replace(/[^\d.]/g, ''));
}

test('drills every level, quick-edits a bid, bulk-pauses keywords, and a reader edits nothing', async ({ page }, info) => {
  test.setTimeout(600_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await register(page, 'e2e-edits');
  await connectSandbox(page, 'Edits account');
  const started = Date.now();
  await page.getByRole('table').getByRole('button', { name: 'Cloud Apps' }).click();
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
    await expect(table.locator('tbody tr').first().or(page.getByTestId('empty-state'))).toBeVisible();
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

  // A reader sees the same rows with every edit control disabled.
  await actAsReader(page);
  await page.goto(keywordsUrl);
  await untilRows(page);
  await expect(table.getByRole('button', { name: label })).toBeDisabled();
  await expect(rows.nth(0).getByTestId('status-switch')).toBeDisabled();
  await rows.nth(0).getByRole('checkbox').check();
  await expect(bar.getByRole('button', { name: 'Pause' })).toBeDisabled();
  await expect(bar.getByRole('button', { name: 'Apply to selected' })).toBeDisabled();
  await table.getByRole('button', { name: label }).hover({ force: true });
  await expect(page.getByText('Readers can see everything but change nothing').first()).toBeVisible();
  await shot(page, info, 'edit-04-reader');
});

test('a 1,000-row keywords page renders only the rows in view, and its scroll is timed', async ({ page }, info) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await register(page, 'e2e-perf');
  await connectSandbox(page, 'Perf account');
  await page.getByRole('table').getByRole('button', { name: 'Cloud Apps' }).click();
  await untilLinks(page);
  const campaignUrl = (await page.getByTestId('report-table').getByRole('link').first().getAttribute('href'))!.split('?')[0]!.replace(/\/groups$/, '');
  // The sandbox's small world has far fewer keywords per campaign: the report answer is
  // widened in the browser to 1,000 rows shaped like the server's, so the figures are the
  // table's own (rendering and scrolling), not the network's.
  await page.route('**/api/asa/reports**', async (route) => {
    const request = route.request().postDataJSON() as { level: string; pageSize: number; graph?: boolean };
    const response = await route.fetch();
    const body = (await response.json()) as { result: { items: Record<string, unknown>[]; total: number; pageSize: number } };
    if (request.level === 'KEYWORDS' && !request.graph && request.pageSize === 1000) {
      const items = Array.from({ length: 1000 }, (_, i) => ({
        keywordId: 900_000 + i,
        keyword: `keyword number ${i + 1}`,
        keywordStatus: i % 7 === 0 ? 'PAUSED' : 'ACTIVE',
        matchType: 'EXACT',
        campaignId: 1,
        adGroupId: 1,
        cptBid: 0.5 + (i % 50) / 10,
        tag: [],
        impressions: 1000 + i * 13,
        taps: 50 + i,
        ttr: 0.05,
        installs: 10 + (i % 30),
        localSpend: 12.5 + i,
        avgCPT: 0.8,
        avgCPA: 1.9,
        avgCPM: 9.1,
        conversionRate: 0.2,
        newDownloads: 7,
        redownloads: 3,
        IPM: 4.2,
        popularity: 40,
        deleted: false,
      }));
      body.result = { ...body.result, items, total: 1000, pageSize: 1000 };
    }
    await route.fulfill({ response, json: body });
  });
  // Measured once the connect's sync has ended, so the figures are not the sync's load.
  for (let i = 0; i < 60 && !(await page.getByTestId('report-last-synced').textContent())?.startsWith('Last synced'); i += 1) {
    await page.waitForTimeout(5000);
    await page.reload();
  }
  await page.goto(`${campaignUrl}/keywords?size=1000`);
  const table = page.getByTestId('report-table');
  const render = await page.evaluate(async () => {
    const start = performance.now();
    for (;;) {
      if (document.querySelector('[data-testid="report-table"][data-virtual]')?.querySelector('tbody tr:not([data-spacer])')) break;
      await new Promise((r) => requestAnimationFrame(r));
      if (performance.now() - start > 30_000) break;
    }
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    return { sinceNavigation: Math.round(performance.now() - nav.startTime), rows: document.querySelectorAll('[data-testid="report-table"] tbody tr:not([data-spacer])').length };
  });
  await expect(table).toHaveAttribute('data-virtual', 'true');
  await expect(page.getByTestId('row-range')).toContainText('of 1 000 rows');
  // The machine's own frame rate first: the same page idle for 300 frames (a shared machine
  // under load misses frames with nothing to draw), then the table scrolled from top to
  // bottom in steps, one per frame, timing every frame.
  const idle = await page.evaluate(async () => {
    const frames: number[] = [];
    let last = performance.now();
    for (let i = 0; i < 300; i += 1) {
      await new Promise((r) => requestAnimationFrame(r));
      const now = performance.now();
      frames.push(now - last);
      last = now;
    }
    const sorted = [...frames].sort((a, b) => a - b);
    return {
      meanMs: Math.round((frames.reduce((a, b) => a + b, 0) / frames.length) * 10) / 10,
      p95Ms: Math.round(sorted[Math.floor(sorted.length * 0.95)]! * 10) / 10,
      dropped: frames.filter((f) => f > (1000 / 60) * 2).length,
    };
  });
  const scroll = await page.evaluate(async () => {
    const box = document.querySelector<HTMLElement>('[data-testid="report-table"]')!;
    const longTasks: number[] = [];
    const observer = new PerformanceObserver((list) => list.getEntries().forEach((e) => longTasks.push(e.duration)));
    observer.observe({ type: 'longtask', buffered: false });
    performance.mark('scroll-start');
    const frames: number[] = [];
    let last = performance.now();
    // 120 px a frame (7,200 px a second) is a fling: about three new rows a frame.
    const step = 120;
    while (box.scrollTop + box.clientHeight < box.scrollHeight - 1) {
      box.scrollTop += step;
      await new Promise((r) => requestAnimationFrame(r));
      const now = performance.now();
      frames.push(now - last);
      last = now;
    }
    performance.mark('scroll-end');
    const total = performance.measure('scroll', 'scroll-start', 'scroll-end').duration;
    observer.disconnect();
    const sorted = [...frames].sort((a, b) => a - b);
    const budget = 1000 / 60;
    return {
      frames: frames.length,
      totalMs: Math.round(total),
      meanMs: Math.round((frames.reduce((a, b) => a + b, 0) / frames.length) * 10) / 10,
      p95Ms: Math.round(sorted[Math.floor(sorted.length * 0.95)]! * 10) / 10,
      maxMs: Math.round(sorted[sorted.length - 1]! * 10) / 10,
      // A frame that took longer than two frame budgets dropped at least one frame.
      dropped: frames.filter((f) => f > budget * 2).length,
      longTasks: longTasks.length,
      renderedRows: box.querySelectorAll('tbody tr:not([data-spacer])').length,
    };
  });
  const figures = { render, idle, scroll };
  info.annotations.push({ type: 'performance', description: JSON.stringify(figures) });
  console.log(`1,000-row keywords page: ${JSON.stringify(figures)}`);
  await shot(page, info, 'perf-keywords-1000');
  await expect(table.getByText('keyword number 1000')).toBeVisible();
  // Only the rows in view (and a few either side) are in the page at any point.
  expect(render.rows).toBeLessThan(60);
  expect(scroll.renderedRows).toBeLessThan(60);
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
  await shot(page, info, 'settings-general-long-email');
});
