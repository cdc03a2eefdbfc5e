/**
 * The browser tests' `test`: Playwright's, with every API answer the browser receives
 * recorded and checked against the server's OpenAPI document (`src/api/contract.ts`). An
 * answer the document does not describe — an unknown route, a status its operation does not
 * list, a body off its schema or with a member the document does not name — fails the test
 * that saw it, listing each one. The specs import `test` and `expect` from here.
 */
import { readFileSync } from 'node:fs';
import { test as base, expect, type Response } from '@playwright/test';
import { openApiContract } from '../src/api/contract';

export { expect };

const contract = openApiContract(JSON.parse(readFileSync(new URL('../src/api/openapi.json', import.meta.url), 'utf8')));

/** The API's own answers: JSON under `/api/` of the app's origin (not the sandbox's). */
function isApiAnswer(response: Response, origin: string): boolean {
  const url = new URL(response.url());
  if (url.origin !== origin || !url.pathname.startsWith('/api/') || url.pathname === '/api/openapi.json') return false;
  return (response.headers()['content-type'] ?? '').includes('application/json');
}

async function problemOf(response: Response): Promise<string | undefined> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    // The page went away before the body was read (a navigation): nothing to check.
    return undefined;
  }
  return contract.contractProblem(response.request().method(), response.url(), response.status(), body);
}

export const test = base.extend<{ apiContract: void }>({
  apiContract: [
    async ({ context, baseURL }, use, testInfo) => {
      const origin = new URL(baseURL ?? 'http://127.0.0.1:8080').origin;
      const checks: Promise<string | undefined>[] = [];
      let seen = 0;
      context.on('response', (response) => {
        if (!isApiAnswer(response, origin)) return;
        seen += 1;
        checks.push(problemOf(response));
      });
      await use();
      const problems = [...new Set((await Promise.all(checks)).filter((p): p is string => p !== undefined))];
      testInfo.annotations.push({ type: 'api answers checked', description: String(seen) });
      expect(problems, 'API answers the OpenAPI document does not describe').toEqual([]);
    },
    { auto: true },
  ],
});
