/**
 * Timings of the built app against the `searchdeck serve` of the sandbox's mid-size world
 * (E2E_MID_BASE_URL; its one large ad group holds 2,200 keywords): the time from signing in
 * to the first table, and a 1,000-row keywords page (render, idle frames, scroll frames, long
 * tasks) measured with the Performance API in headless Chromium. Figures are printed (the
 * list reporter shows them) and kept as annotations.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Locator, Page, TestInfo } from '@playwright/test';
import { expect, test } from './contract';
import { connectSandbox, password, register, reloadUntil, shot } from './helpers';

const mid = process.env.E2E_MID_BASE_URL;
if (!mid) throw new Error('E2E_MID_BASE_URL: the origin of a `searchdeck serve` with SEARCHDECK_SANDBOX_WORLD=mid (scripts/e2e.sh starts one)');
test.use({ baseURL: mid });

/** The mid world's extra ad account: its one campaign's one ad group has 2,200 keywords. */
const BIG_GROUP = /Games$/;

/** Prints a figure line in the reporter's output and keeps it with the test. */
function report(info: TestInfo, type: string, figures: unknown) {
  const line = `${type}: ${JSON.stringify(figures)}`;
  info.annotations.push({ type, description: JSON.stringify(figures) });
  console.log(line);
}

/** The machine's load averages (1, 5, 15 minutes) where Linux tells them: figures depend on it. */
function load(): string | null {
  return existsSync('/proc/loadavg') ? readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ') : null;
}

/** Frame timings of `frames` animation frames (mean, p95, frames over two budgets). */
function summary(frames: number[]) {
  const sorted = [...frames].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    frames: frames.length,
    meanMs: round(frames.reduce((a, b) => a + b, 0) / frames.length),
    p95Ms: round(sorted[Math.floor(sorted.length * 0.95)]!),
    maxMs: round(sorted[sorted.length - 1]!),
    dropped: frames.filter((f) => f > (1000 / 60) * 2).length,
  };
}

/**
 * Opens the page `link` leads to by its address. While the connect's sync runs, the table
 * refetches and re-sorts its rows as metrics arrive, so a row can move between locating a
 * link and clicking it, and the click would open another row's page.
 */
async function follow(page: Page, link: Locator) {
  const href = await link.getAttribute('href');
  expect(href, 'the link has an address').toBeTruthy();
  await page.goto(href!);
}

/** Waits until the connect's sync has stored the keywords' metrics (the page says "Last synced"). */
async function untilSynced(page: Page) {
  for (let i = 0; i < 60 && !(await page.getByTestId('report-last-synced').textContent())?.startsWith('Last synced'); i += 1) {
    await page.waitForTimeout(5000);
    await page.reload();
    await expect(page.getByTestId('report-table').or(page.getByTestId('empty-state'))).toBeVisible();
  }
  await expect(page.getByTestId('report-last-synced')).toHaveText(/^Last synced/);
}

test('time from sign-in to the first table, and a 1,000-row keywords page rendered and scrolled', async ({ page }, info) => {
  test.setTimeout(600_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const email = await register(page, 'e2e-perf');
  await connectSandbox(page, 'Perf account');
  const table = page.getByTestId('report-table');
  await follow(page, table.getByRole('link', { name: BIG_GROUP }));
  await reloadUntil(page, table.getByRole('link').first());
  await follow(page, table.getByRole('link').first());
  await reloadUntil(page, table.getByRole('link').first());
  await follow(page, table.getByRole('link').first());
  await expect(page.getByRole('tab', { name: 'Keywords', selected: true })).toBeVisible();
  // Measured once the connect's sync has ended, so the figures are not the sync's load.
  await untilSynced(page);
  const keywordsUrl = page.url().split('?')[0]!;

  // Sign-in to the first table: from the click on "Sign in" to the first body row of the
  // page the app lands on (the last campaign group of this user).
  await page.goto('/settings/general');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  const signIn = Date.now();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('table tbody tr:not([data-spacer]):not([data-testid="skeleton-row"])').first()).toBeVisible();
  const firstTable = { ms: Date.now() - signIn, landed: new URL(page.url()).pathname, load: load() };
  report(info, 'login to first table', firstTable);

  // The 1,000-row page: time to its first rows after navigation, then the machine's own frame
  // rate (the same page idle for 300 frames: a shared machine under load misses frames with
  // nothing to draw), then the table scrolled top to bottom one step a frame.
  await page.goto(`${keywordsUrl}?size=1000`);
  const render = await page.evaluate(async () => {
    const start = performance.now();
    for (;;) {
      if (document.querySelector('[data-testid="report-table"][data-virtual]')?.querySelector('tbody tr[data-index]')) break;
      await new Promise((r) => requestAnimationFrame(r));
      if (performance.now() - start > 60_000) break;
    }
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    return { sinceNavigationMs: Math.round(performance.now() - nav.startTime), rows: document.querySelectorAll('[data-testid="report-table"] tbody tr[data-index]').length };
  });
  await expect(table).toHaveAttribute('data-virtual', 'true');
  await expect(page.getByTestId('row-range')).toContainText('of 2 200 rows');
  await expect(page.getByTestId('row-range')).toContainText('1–1 000');
  const idle = summary(
    await page.evaluate(async () => {
      const frames: number[] = [];
      let last = performance.now();
      for (let i = 0; i < 300; i += 1) {
        await new Promise((r) => requestAnimationFrame(r));
        const now = performance.now();
        frames.push(now - last);
        last = now;
      }
      return frames;
    }),
  );
  const headerWidths = () => page.evaluate(() => [...document.querySelectorAll('[data-testid="report-table"] thead tr:first-child th')].map((th) => th.getBoundingClientRect().width));
  const widthsBefore = await headerWidths();
  // E2E_PERF_TRACE=<file>: a Chromium timeline trace of the scroll, for profiling.
  const trace = process.env.E2E_PERF_TRACE;
  if (trace) await page.context().browser()!.startTracing(page, { path: trace, categories: ['devtools.timeline', 'blink.user_timing'] });
  const scroll = await page.evaluate(async () => {
    const box = document.querySelector<HTMLElement>('[data-testid="report-table"]')!;
    const longTasks: number[] = [];
    const observer = new PerformanceObserver((list) => list.getEntries().forEach((e) => longTasks.push(e.duration)));
    observer.observe({ type: 'longtask', buffered: false });
    const frames: number[] = [];
    let blankFrames = 0;
    const start = performance.now();
    let last = start;
    // 120 px a frame (7,200 px a second) is a fling: about three new rows a frame.
    // At most 2,000 steps or two minutes: a scroll that stops moving ends with the figures
    // so far instead of hanging the test (the assertions below then say what was reached).
    while (box.scrollTop + box.clientHeight < box.scrollHeight - 1 && frames.length < 2000 && performance.now() - start < 120_000) {
      box.scrollTop += 120;
      await new Promise((r) => requestAnimationFrame(r));
      const now = performance.now();
      frames.push(now - last);
      last = now;
      // A frame whose rendered rows leave part of the box to the spacers (rows not there yet).
      const rows = box.querySelectorAll('tbody tr[data-index]');
      const view = box.getBoundingClientRect();
      const first = rows[0]?.getBoundingClientRect();
      const lastRow = rows[rows.length - 1]?.getBoundingClientRect();
      if (!first || !lastRow || first.top > view.top + 41 || lastRow.bottom < view.bottom - 41) blankFrames += 1;
    }
    observer.disconnect();
    return {
      frames,
      totalMs: Math.round(performance.now() - start),
      blankFrames,
      longTasks: longTasks.length,
      longTaskMs: Math.round(longTasks.reduce((a, b) => a + b, 0)),
      renderedRows: box.querySelectorAll('tbody tr[data-index]').length,
      // Where the scroll ended: the bottom of the page, unless it stopped moving.
      reachedBottom: box.scrollTop + box.clientHeight >= box.scrollHeight - 1,
      scrollTop: Math.round(box.scrollTop),
      scrollHeight: box.scrollHeight,
      connected: box.isConnected,
      // Every rendered row keeps the fixed height, so the spacers never shift.
      rowHeights: [...new Set([...box.querySelectorAll<HTMLElement>('tbody tr[data-index]')].map((r) => r.getBoundingClientRect().height))],
    };
  });
  if (trace) await page.context().browser()!.stopTracing();
  const { frames, ...scrollRest } = scroll;
  const scrolled = summary(frames);
  report(info, '1,000-row keywords page', { render, idle, scroll: { ...scrolled, ...scrollRest }, load: load() });
  console.log(
    `1,000 rows: first rows ${render.sinceNavigationMs} ms after navigation; scroll ${scrolled.meanMs} ms a frame (p95 ${scrolled.p95Ms}), ` +
      `${scrolled.dropped} of ${scrolled.frames} frames dropped, ${scroll.blankFrames} with rows missing (idle page: ${idle.meanMs} ms, ${idle.dropped} dropped); ` +
      `load ${load() ?? 'unknown'}`,
  );
  await shot(page, info, 'perf-keywords-1000');
  // The columns are measured once and frozen: rows scrolling into view never move them.
  expect(await headerWidths()).toEqual(widthsBefore);
  await expect(table.locator('table')).toHaveCSS('table-layout', 'fixed');
  // What a shared 2-core machine can promise whatever its load: the whole page was scrolled
  // one step a frame (41,000 px at 120 px a frame), and most frames came in well under the
  // 200 ms that a table re-rendering all its rows each frame would take. The figures above
  // are the measure; frame counts depend on what else the machine runs.
  expect(scroll.reachedBottom).toBe(true);
  expect(scrolled.frames).toBeGreaterThanOrEqual(300);
  expect(scrolled.p95Ms).toBeLessThan(200);
  // Only the rows in view (and a few either side) are in the page at any point.
  expect(render.rows).toBeLessThan(60);
  expect(scroll.renderedRows).toBeLessThan(60);
  expect(scroll.rowHeights).toEqual([41]);
  await expect(table.locator('tbody tr[data-index="999"]')).toBeVisible();
});
