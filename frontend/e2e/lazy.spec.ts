/** Lazy routes in the built app: the login page downloads its own chunk and not the layout's. */
import { expect, test } from './contract';

const scriptsOf = (urls: string[]) => urls.filter((url) => url.endsWith('.js')).map((url) => new URL(url).pathname);

test('the login page loads its screen chunk and leaves the signed-in layout for later', async ({ page }) => {
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  const scripts = scriptsOf(requested);
  expect(scripts.some((path) => /\/assets\/screens-[\w-]+\.js$/.test(path))).toBe(true);
  expect(scripts.some((path) => /\/assets\/AppLayout-[\w-]+\.js$/.test(path))).toBe(false);
});

test('a screen chunk that does not load asks for a reload', async ({ page }) => {
  await page.route(/\/assets\/screens-[\w-]+\.js$/, (route) => route.abort());
  await page.goto('/login');
  await expect(page.getByRole('alert')).toContainText('The page did not load');
  await expect(page.getByRole('button', { name: 'Reload the page' })).toBeVisible();
});
