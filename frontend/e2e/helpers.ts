/** What the browser tests share: screenshots and a fresh user, and connecting the sandbox. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Locator, type Page, type TestInfo } from '@playwright/test';

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

/** Every upsell modal type (docs/api/plans.md "Upsell modals"). */
const UPSELL_MODALS = [
  'proFree', 'proTrial', 'proTrialEnding3days', 'proTrialEnding2day', 'proTrialEnding1day', 'proTrialEnding',
  'proTrialEnd', 'growthTrial', 'growthTrialEnding', 'growthTrialEnd', 'blockedMmp', 'upgrade',
];

/**
 * Marks every upsell modal seen in this page's browser (as after closing them), from its next
 * navigation on: a new workspace is offered the Pro trial in a modal on its first page, which
 * would stand in front of the screen a test drives.
 */
export async function skipUpsells(page: Page) {
  await page.addInitScript((types) => {
    for (const type of types) window.localStorage.setItem(`searchdeck:upsell-seen:${type}`, '1');
  }, UPSELL_MODALS);
}

/**
 * A client address of its own for every browser context, sent as `X-Forwarded-For`: the
 * servers of scripts/e2e.sh trust the loopback as their reverse proxy
 * (`SEARCHDECK_TRUSTED_PROXIES`), so each test's user signs up and signs in from its own
 * address, as real users behind a proxy do. From one address the sign-up throttle (10 at
 * once, then one a minute: api/src/throttle.rs) set the suite's pace (the API tests cover
 * the throttle itself). Addresses come from 198.18.0.0/15, the range set aside for tests.
 */
async function ownClientAddress(page: Page) {
  const address = `198.${18 + Math.floor(Math.random() * 2)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;
  await page.context().setExtraHTTPHeaders({ 'X-Forwarded-For': address });
}

/**
 * Submits the filled sign-up form from the context's own client address (`ownClientAddress`).
 * When the server still says too many sign-ups came from it (one not trusting the proxy),
 * waits as long as it asks and submits again.
 */
export async function createAccount(page: Page) {
  await ownClientAddress(page);
  const throttled = page.getByRole('alert').filter({ hasText: 'Too many sign-ups from this address' });
  for (let attempt = 0; attempt < 5; attempt += 1) {
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
    // The wait is the server's, not the test's: the test's own time budget grows by it.
    const info = test.info();
    info.setTimeout(info.timeout + (seconds + 1) * 1000);
    await page.waitForTimeout((seconds + 1) * 1000);
  }
}

/**
 * Registers a new user (signed in afterwards) and answers its email. Unless `upsell` is set,
 * the upsell modals are skipped (`skipUpsells`; e2e/plans.spec.ts sets it).
 */
export async function register(page: Page, prefix = 'e2e-acc', { upsell = false }: { upsell?: boolean } = {}) {
  if (!upsell) await skipUpsells(page);
  const email = `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  await page.goto('/register');
  await page.getByLabel('Full name').fill('E2E Accounts');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Repeat password').fill(password);
  await createAccount(page);
  await expect(page).not.toHaveURL(/\/register$/);
  return email;
}

/**
 * Answers the sandbox's consent popup and waits for it to close. The close is listened for
 * before the click: the popup hands its answer over and closes itself, which can happen
 * before a wait started after the click would see it.
 */
export async function answerConsent(popup: Page, answer: 'Allow' | 'Deny') {
  const closed = popup.waitForEvent('close');
  await popup.getByRole('button', { name: answer }).click();
  await closed;
}

/** From the API connection screen, connects the sandbox through its consent popup. */
export async function connectSandbox(page: Page, name: string) {
  await expect(page).toHaveURL(/\/oauth_v2$/);
  await page.getByLabel('Account name').fill(name);
  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Continue with Apple' }).click();
  await answerConsent(await popupOpened, 'Allow');
  await expect(page.getByText('New account added')).toBeVisible();
  await expect(page).toHaveURL(/\/optimization\/[^/]+$/);
}

/**
 * Reloads every 2 s (up to 5 minutes) until `target` shows: the connect's sync fills the
 * tables in the background, behind any other account's.
 */
export async function reloadUntil(page: Page, target: Locator) {
  for (let i = 0; i < 150; i += 1) {
    await expect(page.getByTestId('report-table').or(page.getByTestId('empty-state'))).toBeVisible();
    if (await target.isVisible()) return;
    await page.waitForTimeout(2000);
    await page.reload();
  }
  await expect(target).toBeVisible();
}

/**
 * The running worker's own entry of a comma-separated list that scripts/e2e.sh sets, one
 * per worker (its server's sandbox or data dir), as the worker's baseURL is its server's
 * (playwright.config.ts).
 */
function workersOwn(name: 'E2E_SANDBOX_URL' | 'E2E_DATA_DIR'): string {
  const list = process.env[name];
  if (!list) throw new Error(`${name} must be set (scripts/e2e.sh sets it)`);
  const entries = list.split(',');
  const own = entries[test.info().parallelIndex % entries.length];
  if (!own) throw new Error(`${name} has no entry for this worker`);
  return own;
}

/**
 * Gives the user with `email` a role in their workspace through the operator's command
 * (`searchdeck members set-role`) on the served data dir: the browser tests have no team
 * screen to invite a member with. `E2E_SEARCHDECK_BIN` and `E2E_DATA_DIR` name the served
 * binary and its data dir (scripts/e2e.sh sets both). Returns what the command printed.
 */
export function setRole(email: string, role: 'owner' | 'admin' | 'writer' | 'reader'): string {
  const bin = process.env.E2E_SEARCHDECK_BIN;
  if (!bin) throw new Error('E2E_SEARCHDECK_BIN must name the served binary (scripts/e2e.sh sets it)');
  const dataDir = workersOwn('E2E_DATA_DIR');
  return execFileSync(bin, ['members', 'set-role', '--email', email, '--role', role], {
    env: { ...process.env, SEARCHDECK_DATA_DIR: dataDir },
    encoding: 'utf8',
  });
}

/**
 * Puts workspace `workspace` on `plan` through the operator's command (`searchdeck plans
 * set`, docs/operations.md "Plans") on the served data dir, as an operator would until
 * billing exists. Returns what the command printed.
 */
export function setPlan(workspace: string, plan: 'pro' | 'growth' | 'agency'): string {
  const bin = process.env.E2E_SEARCHDECK_BIN;
  if (!bin) throw new Error('E2E_SEARCHDECK_BIN must name the served binary (scripts/e2e.sh sets it)');
  return execFileSync(bin, ['plans', 'set', '--workspace', workspace, '--plan', plan], {
    env: { ...process.env, SEARCHDECK_DATA_DIR: workersOwn('E2E_DATA_DIR') },
    encoding: 'utf8',
  });
}

/**
 * The worker's sandbox's own address (scripts/e2e.sh sets E2E_SANDBOX_URL to the small-world
 * sandboxes, one per worker): tests call its control endpoints (docs/sandbox.md) to give themselves the data
 * they need whatever the date.
 */
export function sandboxUrl(): string {
  return workersOwn('E2E_SANDBOX_URL');
}

/** A keyword report's rows as the sandbox answers them (`{result: {rows}}`). */
type KeywordRows = {
  result: { rows: { metadata: { id: number | string; text: string; status: string; campaignId: number; adGroupId: number; adGroup: { name: string } }; totalMetrics: { taps: number; totalInstalls: number } }[] };
};

/** A keyword of the sandbox: its id, its text, its campaign's and its ad group's names. */
export interface SandboxKeyword {
  id: string;
  text: string;
  campaign: string;
  adGroup: string;
}

/** `method path` on the sandbox with JSON `body` (and a bearer `token`); answers the JSON. */
async function sandboxCall<T>(method: string, path: string, body?: unknown, token?: string, account?: number): Promise<T> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (account !== undefined) headers['x-ap-context'] = `adAccountId=${account}`;
  const response = await fetch(`${sandboxUrl()}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/** A bearer token of the sandbox's own, through its consent form (as a user allowing it). */
async function sandboxToken(): Promise<string> {
  const client = 'e2e-setup';
  const redirect = 'http://127.0.0.1/e2e-setup';
  const form = new URLSearchParams({ client_id: client, redirect_uri: redirect, state: 'e2e', decision: 'allow' });
  const allowed = await fetch(`${sandboxUrl()}/auth/oauth2/authorize`, { method: 'POST', body: form, redirect: 'manual' });
  const code = new URL(allowed.headers.get('location')!).searchParams.get('code');
  if (!code) throw new Error(`the sandbox's consent answered ${allowed.status} without a code`);
  const grant = new URLSearchParams({ grant_type: 'authorization_code', code, client_id: client, redirect_uri: redirect });
  const answer = await fetch(`${sandboxUrl()}/auth/oauth2/token`, { method: 'POST', body: grant });
  if (!answer.ok) throw new Error(`the sandbox's token endpoint answered ${answer.status}`);
  return ((await answer.json()) as { access_token: string }).access_token;
}

/**
 * Makes one keyword of the sandbox's ad account `accountName` that served yesterday (in the
 * account's time zone) spend without an install that day, through `PUT
 * /sandbox/keywords/{id}/metrics`; answers its id. Called before connecting, so the first
 * sync stores that day as set.
 */
export async function keywordSpendingWithoutInstallsYesterday(accountName: string): Promise<SandboxKeyword> {
  const token = await sandboxToken();
  const acls = (await sandboxCall<{ result: { acls: { adAccount: { id: number; name: string } }[] } }>('GET', '/v1/acls', undefined, token)).result.acls;
  const account = acls.find((a) => a.adAccount.name === accountName)?.adAccount.id;
  if (account === undefined) throw new Error(`no sandbox ad account named ${accountName}`);
  const clock = await sandboxCall<{ today: string }>('GET', '/sandbox/clock');
  // A week back to tomorrow in UTC covers the account's yesterday in any zone.
  const today = new Date(`${clock.today}T00:00:00Z`);
  const day = (offset: number) => new Date(today.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
  const campaigns = await sandboxCall<{ result: { id: number; name: string }[] }>('POST', '/v1/campaigns/query', { pagination: { pageSize: 1000 } }, token, account);
  const filters = [{ field: 'campaignId', operator: 'IN', value: campaigns.result.map((c) => c.id) }];
  const report = await sandboxCall<KeywordRows>(
    'POST',
    '/v1/reports/apps/keywords/query',
    { timeRange: { start: day(-7), end: day(0), granularity: 'DAILY' }, filters, pagination: { pageSize: 1000 } },
    token,
    account,
  );
  const rows = report.result.rows;
  // The first active keyword (another test may have paused some) that served last week and
  // still serves on the account's yesterday.
  for (const row of rows.filter((r) => r.totalMetrics.taps > 0 && r.metadata.status !== 'PAUSED')) {
    const id = String(row.metadata.id);
    const set = await sandboxCall<{ day: string }>('PUT', `/sandbox/keywords/${id}/metrics`, { daysAgo: 1, impressions: 400, taps: 20, installs: 0, spendMicros: 20_000_000 });
    const served = await sandboxCall<KeywordRows>(
      'POST',
      '/v1/reports/apps/keywords/query',
      { timeRange: { start: set.day, end: set.day, granularity: 'DAILY' }, filters, pagination: { pageSize: 1000 } },
      token,
      account,
    );
    const mine = served.result.rows.find((r) => String(r.metadata.id) === id);
    const campaign = campaigns.result.find((c) => c.id === row.metadata.campaignId)?.name;
    if (mine && mine.totalMetrics.taps > 0 && mine.totalMetrics.totalInstalls === 0 && campaign) return { id, text: row.metadata.text, campaign, adGroup: row.metadata.adGroup.name };
  }
  throw new Error(`no keyword of ${accountName} serves on its yesterday`);
}

/** A keyword of the sandbox with what an attribution provider names it by. */
export interface AttributedKeyword extends SandboxKeyword {
  campaignId: string;
  adGroupId: string;
  adamId: string;
  /** The campaign's currency (revenue is sent in it). */
  currency: string;
}

/**
 * An active keyword of the sandbox's ad account `accountName` that spent between 25 and 9
 * days ago (so a cohort of its installs 10 days ago has matured for D7 over spend the sync
 * stored), with the ids an MMP's postback carries.
 */
export async function keywordWithMatureSpend(accountName: string): Promise<AttributedKeyword> {
  const token = await sandboxToken();
  const acls = (await sandboxCall<{ result: { acls: { adAccount: { id: number; name: string } }[] } }>('GET', '/v1/acls', undefined, token)).result.acls;
  const account = acls.find((a) => a.adAccount.name === accountName)?.adAccount.id;
  if (account === undefined) throw new Error(`no sandbox ad account named ${accountName}`);
  const clock = await sandboxCall<{ today: string }>('GET', '/sandbox/clock');
  const today = new Date(`${clock.today}T00:00:00Z`);
  const day = (offset: number) => new Date(today.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
  type Campaign = { id: number; name: string; promotedObjectId: string; status: string; dailyBudget: { value: { currency: string } } };
  const campaigns = (await sandboxCall<{ result: Campaign[] }>('POST', '/v1/campaigns/query', { pagination: { pageSize: 1000 } }, token, account)).result;
  const filters = [{ field: 'campaignId', operator: 'IN', value: campaigns.map((c) => c.id) }];
  const report = await sandboxCall<KeywordRows>(
    'POST',
    '/v1/reports/apps/keywords/query',
    { timeRange: { start: day(-25), end: day(-9), granularity: 'DAILY' }, filters, pagination: { pageSize: 1000 } },
    token,
    account,
  );
  for (const row of report.result.rows.filter((r) => r.totalMetrics.taps > 0 && r.metadata.status !== 'PAUSED')) {
    const campaign = campaigns.find((c) => c.id === row.metadata.campaignId);
    if (!campaign || campaign.status === 'PAUSED') continue;
    return {
      id: String(row.metadata.id),
      text: row.metadata.text,
      campaign: campaign.name,
      adGroup: row.metadata.adGroup.name,
      campaignId: String(campaign.id),
      adGroupId: String(row.metadata.adGroupId),
      adamId: campaign.promotedObjectId,
      currency: campaign.dailyBudget.value.currency,
    };
  }
  throw new Error(`no active keyword of ${accountName} spent between 25 and 9 days ago`);
}

/** The newest email to `to` in the served data dir's outbox (scripts/e2e.sh sets E2E_DATA_DIR). */
export function lastEmailTo(to: string): { subject: string; body: string } | null {
  const dir = workersOwn('E2E_DATA_DIR');
  let text: string;
  try {
    text = readFileSync(join(dir, 'outbox.jsonl'), 'utf8');
  } catch {
    return null;
  }
  const mails = text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { to: string; subject: string; body: string })
    .filter((m) => m.to === to);
  return mails.at(-1) ?? null;
}
