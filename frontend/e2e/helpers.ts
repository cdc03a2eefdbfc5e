/** What the browser tests share: screenshots and a fresh user, and connecting the sandbox. */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';

export const password = 'e2e secret password';

/** Saves a full-page screenshot in the test's output (and in E2E_SCREENSHOTS when set). */
export async function shot(page: Page, info: TestInfo, name: string) {
  const path = info.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await info.attach(name, { path, contentType: 'image/png' });
  const dir = process.env.E2E_SCREENSHOTS;
  if (dir) {
    mkdirSync(dir, { recursive: true });
    await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
  }
}

/** Registers a new user (signed in afterwards) and answers its email. */
export async function register(page: Page, prefix = 'e2e-acc') {
  const email = `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  // The server allows 10 sign-ups a minute from one address (api/src/throttle.rs), and the
  // suite signs up more often than that: when it says so, wait as long as it asks and again.
  const throttled = page.getByRole('alert').filter({ hasText: 'Too many sign-ups from this address' });
  for (let attempt = 0; attempt < 5; attempt += 1) {
    await page.goto('/register');
    await page.getByLabel('Full name').fill('E2E Accounts');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Repeat password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    const outcome = await Promise.race([
      page
        .waitForURL((url) => !url.pathname.endsWith('/register'), { timeout: 15_000 })
        .then(() => 'signed-up' as const)
        .catch(() => 'waiting' as const),
      throttled
        .waitFor({ timeout: 15_000 })
        .then(() => 'throttled' as const)
        .catch(() => 'waiting' as const),
    ]);
    if (outcome !== 'throttled') break;
    const seconds = Number(/in (\d+) seconds?/.exec((await throttled.textContent()) ?? '')?.[1] ?? '60');
    await page.waitForTimeout((seconds + 1) * 1000);
  }
  await expect(page).not.toHaveURL(/\/register$/);
  return email;
}

/** From the API connection screen, connects the sandbox through its consent popup. */
export async function connectSandbox(page: Page, name: string) {
  await expect(page).toHaveURL(/\/oauth_v2$/);
  await page.getByLabel('Account name').fill(name);
  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Continue with Apple' }).click();
  const popup = await popupOpened;
  await popup.getByRole('button', { name: 'Allow' }).click();
  await popup.waitForEvent('close');
  await expect(page.getByText('New account added')).toBeVisible();
  await expect(page).toHaveURL(/\/optimization\/[^/]+$/);
}

/**
 * Reloads every 5 s (up to 5 minutes) until `target` shows: the connect's sync fills the
 * tables in the background, behind any other account's.
 */
export async function reloadUntil(page: Page, target: Locator) {
  for (let i = 0; i < 60; i += 1) {
    await expect(page.getByTestId('report-table').or(page.getByTestId('empty-state'))).toBeVisible();
    if (await target.isVisible()) return;
    await page.waitForTimeout(5000);
    await page.reload();
  }
  await expect(target).toBeVisible();
}

/**
 * Gives the user with `email` a role in their workspace through the operator's command
 * (`searchdeck members set-role`) on the served data dir: the browser tests have no team
 * screen to invite a member with. `E2E_SEARCHDECK_BIN` and `E2E_DATA_DIR` name the served
 * binary and its data dir (scripts/e2e.sh sets both). Returns what the command printed.
 */
export function setRole(email: string, role: 'owner' | 'admin' | 'writer' | 'reader'): string {
  const bin = process.env.E2E_SEARCHDECK_BIN;
  const dataDir = process.env.E2E_DATA_DIR;
  if (!bin || !dataDir) throw new Error('E2E_SEARCHDECK_BIN and E2E_DATA_DIR must name the served binary and its data dir (scripts/e2e.sh sets both)');
  return execFileSync(bin, ['members', 'set-role', '--email', email, '--role', role], {
    env: { ...process.env, SEARCHDECK_DATA_DIR: dataDir },
    encoding: 'utf8',
  });
}
