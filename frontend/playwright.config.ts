/**
 * End-to-end tests drive the built app served by the real backend. Nothing is started here:
 * the backend's test script runs `searchdeck serve` with `frontend/dist` as its static dir
 * and passes its origin in E2E_BASE_URL: one origin per worker, comma-separated
 * (scripts/e2e.sh starts a server with its own sandbox for each, as tests edit the
 * sandbox's campaigns). A worker uses the origin of its parallel index.
 */
import { defineConfig } from '@playwright/test';

const origins = (process.env.E2E_BASE_URL ?? 'http://127.0.0.1:8080').split(',');

export default defineConfig({
  testDir: './e2e',
  timeout: 60_000,
  // A sync runs in the background after every connect (as in production); on a shared 2-core
  // machine its writes can delay an answer past Playwright's 5 s default.
  expect: { timeout: 15_000 },
  retries: 0,
  workers: origins.length,
  // Each test's line with its time, also in CI's log (where the suite's time is read from).
  reporter: 'list',
  use: {
    // TEST_PARALLEL_INDEX is set in the worker processes, which load this file too.
    baseURL: origins[Number(process.env.TEST_PARALLEL_INDEX ?? 0) % origins.length],
    // A failing test keeps its trace (actions, DOM snapshots, network, console) without the
    // screencast: recording every test's frames as JPEGs kept Chromium's compositor busy and
    // cost the 25 tests 150 s of CPU on 2 cores (286 s of wall time against 225 s alone,
    // 2026-11-28). A failure's screenshot is still taken.
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
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
