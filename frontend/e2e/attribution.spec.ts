/**
 * Issue 44, integrations in the browser (docs/screens/attribution.md): an owner connects
 * AppsFlyer from Settings › Integrations, sees its postback URL once with Copy, sends a test
 * event and finds it first in the events, marked Test; after a reload the URL is masked.
 * Then Adjust: its URL (a GET with macros) receives a real postback, filled as Adjust would,
 * which shows in the events and turns the integration Active; and the custom server shows its
 * signing secret once.
 */
import { expect, test } from './contract';
import { connectSandbox, register, shot } from './helpers';

test('an owner connects AppsFlyer, sees the URL once and a test event', async ({ page }, info) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await register(page, 'e2e-attr');
  await connectSandbox(page, 'Attribution account');

  await page.goto('/settings/general');
  await page.getByRole('tab', { name: 'Integrations' }).click();
  await expect(page).toHaveURL(/\/settings\/integrations$/);
  const mmps = page.getByRole('table', { name: 'Attribution providers' });
  await expect(mmps.getByRole('row').filter({ hasText: 'AppsFlyer' })).toContainText('Not connected');
  await shot(page, info, 'attribution-01-list');

  await mmps.getByRole('button', { name: 'Connect AppsFlyer' }).click();
  await expect(page).toHaveURL(/\/settings\/integration\?provider=appsflyer$/);
  const panel = page.getByRole('region', { name: 'Your postback URL' });
  await expect(panel.getByTestId('new-url')).toContainText('/api/attribution/postbacks/appsflyer/');
  await expect(panel).toContainText('it will not be shown again');
  await expect(panel.getByRole('button', { name: 'Copy the URL' })).toBeVisible();
  await shot(page, info, 'attribution-02-connected');

  await page.getByRole('button', { name: 'Send test event' }).click();
  const events = page.getByRole('table', { name: 'Recent events' });
  await expect(events.getByTestId('event-row').first()).toContainText('Test');
  await shot(page, info, 'attribution-03-test-event');

  await page.reload();
  await expect(page.getByTestId('masked-url')).toContainText('…');
  await expect(page.getByRole('region', { name: 'Your postback URL' })).toHaveCount(0);
  await expect(events.getByTestId('event-row').first()).toContainText('Test');
  await shot(page, info, 'attribution-04-masked');
});

test('Adjust receives a real postback; the custom server shows its secret once', async ({ page }, info) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await register(page, 'e2e-attr-adjust');
  await page.goto('/settings/integration?provider=adjust');
  await page.getByRole('button', { name: 'Connect Adjust' }).click();
  const url = (await page.getByRole('region', { name: 'Your postback URL' }).getByTestId('new-url').textContent()) ?? '';
  expect(url).toContain('/api/attribution/postbacks/adjust/');
  await expect(page.getByTestId('method')).toHaveText('GET');

  // Adjust fills its placeholders; the ones it has no value for stay as they are.
  const filled: Record<string, string> = {
    activity_kind: 'install',
    network_name: 'Apple Search Ads',
    iad_campaign_id: '542370539',
    iad_adgroup_id: '542317095',
    iad_keyword_id: '87675432',
    iad_conversion_type: 'Download',
    created_at: String(Math.floor(Date.now() / 1000)),
    installed_at: String(Math.floor(Date.now() / 1000)),
    adid: `e2e-${Date.now()}`,
    country: 'us',
  };
  const postback = url.replace(/\{(\w+)\}/g, (whole, name: string) => (filled[name] === undefined ? whole : encodeURIComponent(filled[name])));
  const answer = await page.request.get(postback);
  expect(answer.status()).toBe(200);
  expect(((await answer.json()) as { result: { stored: number } }).result.stored).toBe(1);

  const row = page.getByRole('table', { name: 'Recent events' }).getByTestId('event-row').first();
  await expect(row).toContainText('542370539', { timeout: 20_000 });
  await expect(row).toContainText('US');
  await shot(page, info, 'attribution-05-adjust-postback');

  await page.goto('/settings/integrations');
  await expect(page.getByRole('table', { name: 'Attribution providers' }).getByRole('row').filter({ hasText: 'Adjust' })).toContainText('Active');
  await shot(page, info, 'attribution-06-list-active');

  await page.goto('/settings/integration?provider=custom');
  await page.getByRole('button', { name: 'Connect Custom tracking server' }).click();
  await expect(page.getByTestId('new-secret')).not.toBeEmpty();
  await shot(page, info, 'attribution-07-custom');
});
