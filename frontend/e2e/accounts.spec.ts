/**
 * Connecting Apple Ads accounts in the built app against `searchdeck serve` and its sandbox:
 * a new user lands on the API connection screen, connects through the real popup (the
 * sandbox's consent page), connects a second account with an API key pair registered at the
 * sandbox, and switches between them with the account selector. Every screen is saved as a
 * screenshot (in the test's output folder, and in E2E_SCREENSHOTS when set).
 */
import { expect, test } from './contract';
import { answerConsent, password, register, shot } from './helpers';

test('a new user connects a sandbox account through the popup, picks a campaign group and reconnects by key pair', async ({ page }, info) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const email = await register(page);

  // No account yet: Ads Optimization sends the user to the API connection screen.
  await expect(page).toHaveURL(/\/oauth_v2$/);
  await expect(page.getByRole('heading', { name: 'Connect your Apple Ads account' })).toBeVisible();
  await expect(page.getByText("grant 'Read & Write' or 'Limited Access'")).toBeVisible();
  await expect(page.getByRole('link', { name: 'Account Settings' })).toHaveAttribute('data-disabled', 'true');
  await shot(page, info, '01-connect-screen');

  // The name is required, then the popup opens on the sandbox's consent page.
  await page.getByRole('button', { name: 'Continue with Apple' }).click();
  await expect(page.getByText('Please complete this field to continue')).toBeVisible();
  await page.getByLabel('Account name').fill('Sandbox main');
  await expect(page.getByTestId('name-counter')).toHaveText('12/30');
  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Continue with Apple' }).click();
  const popup = await popupOpened;
  await popup.waitForURL(/\/auth\/oauth2\/authorize/);
  const size = await popup.evaluate(() => ({ w: window.innerWidth, h: window.innerHeight }));
  expect(size).toEqual({ w: 1025, h: 580 });
  const sandboxOrigin = new URL(popup.url()).origin;
  await expect(page.getByText('Finish signing in with Apple in the window that opened.')).toBeVisible();
  await answerConsent(popup, 'Allow');

  // The opener ran the oauth check: the account is active and its campaign groups show.
  await expect(page.getByText('New account added')).toBeVisible();
  await expect(page).toHaveURL(/\/optimization\/[^/]+$/);
  await expect(page.getByRole('heading', { name: 'Sandbox main' })).toBeVisible();
  // Its campaign groups with their metrics (the ORGS level), each name opening its campaigns.
  await expect(page.getByTestId('report-table').getByRole('link', { name: 'Cloud Apps' })).toBeVisible();
  const selector = page.getByTestId('account-selector');
  await expect(selector).toContainText('Sandbox main');
  await expect(selector).toContainText('All campaign groups');
  await shot(page, info, '02-campaign-groups');

  // A campaign group from the selector; the choice is stored per email and survives a reload.
  await selector.click();
  const groups = page.getByRole('group', { name: 'Campaign groups' });
  await groups.getByRole('button', { name: 'Cloud Apps' }).click();
  await expect(selector).toContainText('Cloud Apps');
  await page.reload();
  await expect(selector).toContainText('Sandbox main');
  await expect(selector).toContainText('Cloud Apps');
  const stored = await page.evaluate((key) => window.localStorage.getItem(key), `searchdeck:active-account:${email}`);
  const choice = JSON.parse(stored ?? '{}') as { accountId?: unknown; orgId?: unknown };
  expect(typeof choice.accountId).toBe('string');
  // Ids are strings of digits (lib/ids), in storage as on the wire.
  expect(typeof choice.orgId).toBe('string');
  expect(choice.orgId as string).toMatch(/^\d+$/);

  // The key-pair tab: the public key registered at the sandbox gives the ids to enter. The
  // sandbox world has one Apple Ads user, so this connects the same user again: the one
  // connection is renamed and made active with no campaign group chosen.
  await selector.click();
  await page.getByRole('button', { name: 'Add new account' }).click();
  const modal = page.getByRole('dialog', { name: 'Add new account' });
  await expect(modal).toBeVisible();
  await shot(page, info, '04-add-account-modal');
  await modal.getByRole('tab', { name: 'API key' }).click();
  await expect(modal.getByTestId('public-key')).toContainText('BEGIN PUBLIC KEY');
  const publicKey = (await modal.getByTestId('public-key').textContent()) ?? '';
  await modal.getByRole('button', { name: 'Connect account' }).click();
  await expect(modal.getByText('Please complete this field to continue')).toHaveCount(4);
  await shot(page, info, '05-add-account-key-pair');
  const registered = await page.request.post(`${sandboxOrigin}/sandbox/keys`, { data: publicKey });
  expect(registered.status()).toBe(201);
  const ids = (await registered.json()) as { clientId: string; teamId: string; keyId: string };
  await modal.getByLabel('Account name').fill('Key pair account');
  await modal.getByLabel('Client ID').fill(ids.clientId);
  await modal.getByLabel('Team ID').fill(ids.teamId);
  await modal.getByLabel('Key ID').fill(ids.keyId);
  await modal.getByRole('button', { name: 'Connect account' }).click();
  // The same Apple Ads user: the connection is renamed, and the snackbar says so (issue 20).
  // The connect proves the key pair with a token exchange and reads the campaign groups at
  // the sandbox: on a loaded two-core machine that can take longer than the default wait.
  await expect(page.getByText('This Apple Ads user is already connected as \u201cSandbox main\u201d; its name was updated to \u201cKey pair account\u201d')).toBeVisible({ timeout: 45_000 });
  await expect(page.getByText('New account added')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Key pair account' })).toBeVisible();
  await expect(selector).toContainText('Key pair account');
  await expect(selector).toContainText('All campaign groups');

  // Choosing the account in the list says so; signing out and back in restores the choice.
  await selector.click();
  const accounts = page.getByRole('group', { name: 'Accounts' });
  await expect(accounts.getByRole('button')).toHaveCount(1);
  await shot(page, info, '06-selector-after-key-pair');
  await accounts.getByRole('button', { name: 'Key pair account' }).click();
  await expect(page.getByText('Account changed to Key pair account')).toBeVisible();
  await selector.click();
  await page.getByTestId('account-popover').getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/optimization\/[^/]+$/);
  await expect(page.getByRole('heading', { name: 'Key pair account' })).toBeVisible();
  // Settings › General: a long email wraps inside its column instead of running over the role.
  await page.goto('/settings/general');
  const emailBox = await page.getByText(email, { exact: true }).boundingBox();
  const roleBox = await page.getByText('Owner', { exact: true }).boundingBox();
  expect(emailBox && roleBox && emailBox.x + emailBox.width <= roleBox.x).toBe(true);
  await shot(page, info, '07-settings-general');
});

test('a denied consent shows the server message in a red snackbar', async ({ page }) => {
  await register(page);
  await expect(page).toHaveURL(/\/oauth_v2$/);
  await page.getByLabel('Account name').fill('Denied');
  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Continue with Apple' }).click();
  const popup = await popupOpened;
  await answerConsent(popup, 'Deny');
  await expect(page.getByText(/Access to Apple Ads was not granted/)).toBeVisible();
  await expect(page).toHaveURL(/\/oauth_v2$/);
});

test('the selector lays out many accounts and groups in columns of 12, and searches them', async ({ page }, info) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await register(page);
  await expect(page).toHaveURL(/\/oauth_v2$/);
  // The sandbox world has one Apple Ads user; the list of a large workspace is served here.
  const org = (i: number) => ({
    orgId: String(1000 + i),
    displayName: `Campaign group ${i + 1}`,
    currency: 'USD',
    timeZone: 'UTC',
    permission: 'API Account Manager',
    selected: true,
  });
  const items = Array.from({ length: 20 }, (_, i) => ({
    _id: `acc-${i + 1}`,
    name: `Client account ${i + 1}`,
    method: 'oauth',
    clientId: 'SEARCHADS.x',
    teamId: null,
    keyId: null,
    publicKey: null,
    appleUserId: '1',
    acls: Array.from({ length: i === 0 ? 30 : 3 }, (_, j) => org(j)),
    createdAt: '2026-01-01T00:00:00Z',
    lastSyncedAt: '2026-11-20T08:30:00Z',
    nextSyncAt: '2026-11-20T09:00:00Z',
  }));
  await page.route('**/api/account/getAll', (route) =>
    route.fulfill({ json: { status: 200, message: 'Request success', result: { items } } }),
  );
  await page.goto('/settings/general');
  const selector = page.getByTestId('account-selector');
  await expect(selector).toContainText('Client account 1');
  await selector.click();
  const popover = page.getByTestId('account-popover');
  await expect(popover.locator('[data-testid="accounts-columns"] [data-column]')).toHaveCount(2);
  await expect(popover.locator('[data-testid="groups-columns"] [data-column]')).toHaveCount(3);
  await expect(popover.getByTestId('sync-times')).toHaveText(/^Last synced 20\/11\/2026 \d\d:30 · Next sync 20\/11\/2026 \d\d:00$/);
  await shot(page, info, '08-selector-columns');
  await popover.getByLabel('Search accounts').fill('zzz');
  await expect(popover.getByText("We couldn't find anything matching your search")).toBeVisible();
  await shot(page, info, '09-selector-no-results');
});
