#!/usr/bin/env node
/**
 * Checks the built app (`npm run build` first) against its size budget: the JavaScript the
 * login page downloads before it can render (the entry chunk, the login screen's lazy chunk,
 * and every chunk they import statically) must stay within 300 KB gzipped. Lazy chunks with a
 * budget of their own (the drill-down's chart, which carries its chart library) are checked
 * alone, without the chunks they share with the app. Reads Vite's build manifest, prints each
 * chunk's gzipped size, and exits 1 above a budget.
 *
 *   node scripts/bundle-size.mjs [--budget BYTES] [--dist DIR]
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';

/** 300 KB, counted as Vite reports sizes (1 kB = 1000 bytes). */
export const LOGIN_BUDGET_BYTES = 300_000;

/** The module whose chunk the /login route loads (see src/app/routes.tsx). */
export const LOGIN_SCREENS = 'src/features/auth/screens.ts';

/** Lazy chunks (manifest key) and their own gzipped budget in bytes. */
export const LAZY_BUDGETS = {
  'src/features/optimization/components/ReportChart.tsx': 40_000,
};

/** The manifest keys of `roots` and of every chunk they import statically, each once. */
export function staticClosure(manifest, roots) {
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    if (!manifest[key]) throw new Error(`${key} is not in the build manifest`);
    seen.add(key);
    for (const imported of manifest[key].imports ?? []) visit(imported);
  };
  roots.forEach(visit);
  return [...seen];
}

export function gzippedSize(path) {
  return gzipSync(readFileSync(path), { level: 9 }).length;
}

function main() {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const { values } = parseArgs({
    options: { budget: { type: 'string' }, dist: { type: 'string', default: join(root, 'dist') } },
  });
  const budget = values.budget ? Number(values.budget) : LOGIN_BUDGET_BYTES;
  const manifestPath = join(values.dist, '.vite', 'manifest.json');
  if (!existsSync(manifestPath)) {
    console.error(`${manifestPath} is missing: run \`npm run build\` first`);
    process.exit(1);
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
  const keys = staticClosure(manifest, [entry, LOGIN_SCREENS]);
  let total = 0;
  console.log('login page initial JS (gzipped):');
  for (const key of keys) {
    const size = gzippedSize(join(values.dist, manifest[key].file));
    total += size;
    console.log(`  ${(size / 1000).toFixed(2).padStart(9)} kB  ${manifest[key].file}  (${key})`);
  }
  const css = keys.flatMap((key) => manifest[key].css ?? []);
  const cssTotal = [...new Set(css)].reduce((sum, file) => sum + gzippedSize(join(values.dist, file)), 0);
  console.log(`  ${(total / 1000).toFixed(2).padStart(9)} kB  total, budget ${(budget / 1000).toFixed(0)} kB`);
  console.log(`  (CSS, not counted: ${(cssTotal / 1000).toFixed(2)} kB gzipped)`);
  let failed = false;
  if (total > budget) {
    console.error(`The login page's initial JS is ${total} bytes gzipped, over the budget of ${budget}.`);
    failed = true;
  }
  console.log('lazy chunks with a budget (gzipped):');
  for (const [key, limit] of Object.entries(LAZY_BUDGETS)) {
    if (!manifest[key]) throw new Error(`${key} is not in the build manifest`);
    const size = gzippedSize(join(values.dist, manifest[key].file));
    console.log(`  ${(size / 1000).toFixed(2).padStart(9)} kB  ${manifest[key].file}  (${key}), budget ${(limit / 1000).toFixed(0)} kB`);
    if (size > limit) {
      console.error(`${key} is ${size} bytes gzipped, over its budget of ${limit}.`);
      failed = true;
    }
  }
  if (failed) process.exit(1);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
