/**
 * End-to-end tests drive the built app served by the real backend. Nothing is started here:
 * the backend's test script runs `searchdeck serve` with `frontend/dist` as its static dir
 * and passes its origin in E2E_BASE_URL.
 */
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: './e2e',
  timeout: 60_000,
  // A sync runs in the background after every connect (as in production); on a shared 2-core
  // machine its writes can delay an answer past Playwright's 5 s default.
  expect: { timeout: 15_000 },
  retries: 0,
  workers: 1,
  // Each test's line with its time, also in CI's log (where the suite's time is read from).
  reporter: 'list',
  use: {
    baseURL: process.env.E2E_BASE_URL ?? 'http://127.0.0.1:8080',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
