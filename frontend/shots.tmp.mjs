import { chromium } from '@playwright/test';
const base = 'http://127.0.0.1:23456';
const email = process.argv[2];
const steps = process.argv[3] ?? 'main';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
page.on('console', (m) => m.type() === 'error' && console.log('console:', m.text()));
await page.goto(base + '/login');
await page.getByLabel('Email').fill(email);
await page.getByLabel('Password', { exact: true }).fill('e2e secret password');
await page.getByRole('button', { name: /Sign in|Log in/ }).click();
await page.waitForURL(/optimization/);
await page.waitForTimeout(1500);
await page.goto(base + '/optimization');
await page.waitForTimeout(1500);
console.log(page.url());
await page.getByRole('table').getByRole('button', { name: 'Cloud Apps' }).click();
await page.waitForTimeout(4000);
await page.screenshot({ path: '/tmp/shots/campaigns.png', fullPage: true });
if (steps.includes('filters')) {
  await page.getByRole('button', { name: /Filters/ }).click();
  await page.getByRole('button', { name: 'Add filter' }).click();
  await page.waitForTimeout(300);
  await page.screenshot({ path: '/tmp/shots/filters-menu.png' });
  await page.getByRole('menuitem', { name: 'Metric' }).click();
  await page.getByRole('button', { name: 'Add filter' }).click();
  await page.getByRole('menuitem', { name: 'Status' }).click();
  await page.waitForTimeout(300);
  await page.screenshot({ path: '/tmp/shots/filters.png' });
  await page.keyboard.press('Escape');
}
if (steps.includes('columns')) {
  await page.getByRole('button', { name: /Columns/ }).click();
  await page.waitForTimeout(800);
  await page.screenshot({ path: '/tmp/shots/columns.png' });
  await page.keyboard.press('Escape');
}
if (steps.includes('settings')) {
  await page.goto(base + '/settings/general');
  await page.waitForTimeout(1500);
  await page.screenshot({ path: '/tmp/shots/settings.png', fullPage: true });
}
await browser.close();
