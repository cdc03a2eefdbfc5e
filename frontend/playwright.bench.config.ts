/**
 * Browser timings that are not tests (`e2e/*.bench.ts`): the suite's own config, matching the
 * benchmark files instead of the specs. Run through scripts/e2e.sh, which starts the server:
 * `E2E_WORKERS=1 bash scripts/e2e.sh -c playwright.bench.config.ts e2e/first-paint.bench.ts`.
 */
import { defineConfig } from '@playwright/test';
import base from './playwright.config';

export default defineConfig({
  ...base,
  testMatch: '**/*.bench.ts',
  timeout: 600_000,
});
