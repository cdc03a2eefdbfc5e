/**
 * The campaign-groups screen's first paint (issue 42 item 19; docs/benchmarks.md): signs up,
 * connects the sandbox, waits for the connect's first sync to end, then loads
 * `/optimization/<account>` FIRST_PAINT_LOADS times (7 by default) and prints, for each load
 * and as median (range), the time from the navigation's start until the table's first body
 * row and the chart's canvas are in the page (polled in the page every 10 ms), with the
 * Resource Timing of every `/api/` call and chunk and the long tasks. With
 * FIRST_PAINT_PROFILE=1 one more load is recorded with the Chrome DevTools Protocol's
 * profiler and tracing: the functions that took the main thread's time between the report's
 * answer and the first paint are printed, the profile and the trace kept in the test's output
 * (open them in Chromium's DevTools, Performance panel).
 *
 * E2E_WORKERS=1 bash scripts/e2e.sh -c playwright.bench.config.ts e2e/first-paint.bench.ts
 * (E2E_STATIC_DIR=<a dist> measures another build: the baseline of a before/after).
 *
 * Before/after on a machine whose load changes from minute to minute: serve a symbolic link
 * (E2E_STATIC_DIR=<link>) and name the builds, FIRST_PAINT_LINK=<link>
 * FIRST_PAINT_BUILDS=before:<dist>,after:<dist>; each round then loads every build once (in
 * turn, the order alternating), pointing the link at it, and the figures are per build. Give
 * each dist the other's assets too: the browser may still hold the other build's page (a
 * heuristic freshness of its HTTP cache), so each load is counted for the build whose entry
 * chunk it ran.
 */
import { existsSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type CDPSession, type Page, type TestInfo } from '@playwright/test';
import { connectSandbox, register } from './helpers';

const LOADS = Number(process.env.FIRST_PAINT_LOADS ?? 7);
const LINK = process.env.FIRST_PAINT_LINK;
const BUILDS = (process.env.FIRST_PAINT_BUILDS ?? '')
  .split(',')
  .filter(Boolean)
  .map((entry) => {
    const [name, dir] = entry.split(':');
    return { name: name!, dir: dir! };
  });

/** Serves `dir` from now on (the server reads its static dir through the link on every request). */
function serve(dir: string) {
  if (!LINK) throw new Error('FIRST_PAINT_LINK names the link E2E_STATIC_DIR serves');
  if (!existsSync(dir)) throw new Error(`no build at ${dir}`);
  rmSync(LINK, { force: true });
  symlinkSync(dir, LINK);
  // Newer than the other build's page: the browser's revalidation gets this one, not a 304.
  const now = new Date();
  utimesSync(join(dir, 'index.html'), now, now);
}
const PROFILE = process.env.FIRST_PAINT_PROFILE === '1';

interface Marks {
  row: number | null;
  canvas: number | null;
  longTasks: [number, number][];
}

declare global {
  interface Window {
    __firstPaint?: Marks;
  }
}

/** In every document: when the first body row and the chart's canvas appear, and the long tasks. */
function watchFirstPaint() {
  const marks: Marks = { row: null, canvas: null, longTasks: [] };
  window.__firstPaint = marks;
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) marks.longTasks.push([Math.round(e.startTime), Math.round(e.duration)]);
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // No long-task timing in this browser: the rows' and canvas' times still count.
  }
  const poll = setInterval(() => {
    const now = performance.now();
    if (marks.row === null && document.querySelector('[data-testid="report-table"] tbody tr:not([data-testid="skeleton-row"]):not([data-spacer])')) marks.row = now;
    if (marks.canvas === null && document.querySelector('[data-testid="report-chart"] canvas')) marks.canvas = now;
    if (marks.row !== null && marks.canvas !== null) clearInterval(poll);
  }, 10);
}

interface Resource {
  name: string;
  start: number;
  end: number;
}

interface Load {
  row: number;
  canvas: number;
  paint: number;
  resources: Resource[];
  longTasks: [number, number][];
}

/** `/api/x/y?…` as `x/y`; chunks by file name without the hash. */
function shortName(url: string): string {
  const { pathname } = new URL(url);
  if (pathname.startsWith('/api/')) return pathname.slice(5);
  return pathname.replace(/^\/assets\//, '').replace(/-[\w-]{8}\.(js|css)$/, '.$1');
}

async function measure(page: Page, url: string): Promise<Load> {
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(() => window.__firstPaint?.row != null && window.__firstPaint.canvas != null, null, { timeout: 60_000, polling: 50 });
  // Let the chart's other requests and any long task after the paint land in the buffers.
  await page.waitForTimeout(300);
  return page.evaluate(() => {
    const marks = window.__firstPaint!;
    const resources = performance
      .getEntriesByType('resource')
      .map((e) => e as PerformanceResourceTiming)
      .filter((e) => e.name.includes('/api/') || e.name.includes('/assets/'))
      .map((e) => ({ name: e.name, start: Math.round(e.startTime), end: Math.round(e.responseEnd) }));
    return { row: Math.round(marks.row!), canvas: Math.round(marks.canvas!), paint: Math.round(Math.max(marks.row!, marks.canvas!)), resources, longTasks: marks.longTasks };
  });
}

/** The reports are told apart by their body: one with `graph` is the chart's points. */
function labelReports(page: Page) {
  const labels = new Map<string, string[]>();
  page.on('request', (request) => {
    if (!request.url().includes('/api/asa/reports')) return;
    const body = request.postDataJSON() as { graph?: boolean; level?: string } | null;
    const list = labels.get(request.url()) ?? [];
    list.push(`${body?.graph ? 'graph' : 'report'} ${body?.level ?? ''}`);
    labels.set(request.url(), list);
  });
  return labels;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
}

function figure(values: number[]): string {
  return `${median(values)} ms (${Math.min(...values)}–${Math.max(...values)} ms)`;
}

function load(): string {
  return existsSync('/proc/loadavg') ? readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ') : 'unknown';
}

function print(info: TestInfo, line: string) {
  info.annotations.push({ type: 'first paint', description: line });
  console.log(line);
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * Self time by function, and time by the outermost function of the app's code on the stack,
 * of the samples within [from, to] ms after the navigation's start (`origin` in the profile's
 * microseconds).
 */
function summarise(profile: CpuProfile, origin: number, from: number, to: number) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (n: ProfileNode) => {
    const file = n.callFrame.url.replace(/^.*\/assets\//, '').replace(/-[\w-]{8}\.js$/, '');
    return `${n.callFrame.functionName || '(anonymous)'} ${file}${file ? `:${n.callFrame.lineNumber + 1}:${n.callFrame.columnNumber + 1}` : ''}`;
  };
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let time = profile.startTime;
  let total = 0;
  profile.samples.forEach((id, i) => {
    time += profile.timeDeltas[i] ?? 0;
    const at = (time - origin) / 1000;
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    if (at < from || at > to) return;
    total += dt;
    const node = byId.get(id)!;
    self.set(label(node), (self.get(label(node)) ?? 0) + dt);
    const seen = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const l = label(byId.get(n)!);
      if (seen.has(l)) continue;
      seen.add(l);
      inclusive.set(l, (inclusive.get(l) ?? 0) + dt);
    }
  });
  const top = (m: Map<string, number>, count: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([k, v]) => `${v.toFixed(1).padStart(7)} ms  ${k}`);
  return { total, self: top(self, 30), inclusive: top(inclusive, 60) };
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tid: number;
  pid: number;
  cat: string;
  args?: { data?: { url?: string; functionName?: string; type?: string } };
}

/** The renderer main thread's top-level tasks' time by kind within [from, to] ms (trace clock `origin` µs). */
function traceSummary(events: TraceEvent[], origin: number, from: number, to: number) {
  const main = events.find((e) => e.name === 'thread_name' && (e as unknown as { args: { name: string } }).args.name === 'CrRendererMain');
  if (!main) return [];
  const kinds = new Map<string, number>();
  for (const e of events) {
    if (e.pid !== main.pid || e.tid !== main.tid || e.ph !== 'X' || !e.dur) continue;
    const at = (e.ts - origin) / 1000;
    if (at + e.dur / 1000 < from || at > to) continue;
    if (!['RunTask', 'ThreadControllerImpl::RunTask'].includes(e.name) && !/devtools\.timeline/.test(e.cat)) continue;
    const key = e.name;
    kinds.set(key, (kinds.get(key) ?? 0) + e.dur / 1000);
  }
  return [...kinds.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 25)
    .map(([k, v]) => `${v.toFixed(1).padStart(7)} ms  ${k}`);
}

/** One more load under the CPU profiler and the tracer; prints where the main thread went. */
async function profile(page: Page, url: string, info: TestInfo) {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', ({ value }) => {
    events.push(...(value as unknown as TraceEvent[]));
  });
  const traced = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: { includedCategories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing', 'loading'] },
  });
  await page.goto('about:blank');
  await cdp.send('Profiler.start');
  const loaded = await measure(page, url);
  const { profile: cpu } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
  await cdp.send('Tracing.end');
  await traced;
  // The navigation's start on the profiler's and the tracer's clock (both monotonic µs).
  const navStart = events.find((e) => e.name === 'navigationStart' && e.args?.data && (e.args.data as { documentLoaderURL?: string }).documentLoaderURL?.includes('/optimization/'));
  const origin = navStart?.ts ?? cpu.startTime;
  const report = loaded.resources.find((r) => r.name.includes('/api/asa/reports'));
  const from = report ? Math.max(...loaded.resources.filter((r) => r.name.includes('/api/asa/reports')).map((r) => r.end)) : 0;
  print(info, `profiled load: ${JSON.stringify({ row: loaded.row, canvas: loaded.canvas, reportsAnswered: from })}`);
  const whole = summarise(cpu, origin, 0, loaded.paint);
  const gap = summarise(cpu, origin, from, loaded.paint);
  const cpuPath = info.outputPath('first-paint.cpuprofile');
  const tracePath = info.outputPath('first-paint.trace.json');
  writeFileSync(cpuPath, JSON.stringify(cpu));
  writeFileSync(tracePath, JSON.stringify({ traceEvents: events }));
  console.log(`CPU samples from navigation to paint: ${whole.total.toFixed(0)} ms; between the reports' answers and the paint: ${gap.total.toFixed(0)} ms`);
  console.log('self time, navigation to paint:\n' + whole.self.join('\n'));
  console.log('inclusive time, navigation to paint:\n' + whole.inclusive.join('\n'));
  console.log('self time, reports answered to paint:\n' + gap.self.join('\n'));
  console.log('inclusive time, reports answered to paint:\n' + gap.inclusive.join('\n'));
  console.log('main thread, navigation to paint (trace events):\n' + traceSummary(events, origin, 0, loaded.paint).join('\n'));
  console.log('main thread, reports answered to paint (trace events):\n' + traceSummary(events, origin, from, loaded.paint).join('\n'));
  console.log(`profile: ${cpuPath}\ntrace: ${tracePath}`);
}

/** Median (range) of the paint, and each request's median start and end (repeats in the order asked). */
function summary(info: TestInfo, build: string, loads: Load[]) {
  const prefix = build ? `${build}: ` : '';
  print(info, `${prefix}first paint (row and canvas): ${figure(loads.map((l) => l.paint))}; row ${figure(loads.map((l) => l.row))}; canvas ${figure(loads.map((l) => l.canvas))}`);
  const names = new Map<string, { start: number[]; end: number[] }>();
  for (const l of loads) {
    const count = new Map<string, number>();
    for (const r of l.resources) {
      const base = shortName(r.name);
      const n = (count.get(base) ?? 0) + 1;
      count.set(base, n);
      const key = n > 1 ? `${base} #${n}` : base;
      const entry = names.get(key) ?? { start: [], end: [] };
      entry.start.push(r.start);
      entry.end.push(r.end);
      names.set(key, entry);
    }
  }
  for (const [name, { start, end }] of [...names.entries()].sort((a, b) => median(a[1].start) - median(b[1].start)))
    print(info, `  ${prefix}${name.padEnd(40)} start ${String(median(start)).padStart(5)} ms, end ${String(median(end)).padStart(5)} ms (${start.length} loads)`);
}

test('the campaign-groups screen: navigation to first table row and chart', async ({ page }, info) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await register(page, 'e2e-paint');
  await connectSandbox(page, 'Paint account');
  const url = new URL(page.url()).pathname;
  // Measured once the connect's first sync has ended, so the figures are not the sync's load.
  for (let i = 0; i < 60 && !(await page.getByTestId('report-last-synced').textContent())?.startsWith('Last synced'); i += 1) {
    await page.waitForTimeout(5000);
    await page.reload();
    await expect(page.getByTestId('report-table').or(page.getByTestId('empty-state'))).toBeVisible();
  }
  await expect(page.getByTestId('report-last-synced')).toHaveText(/^Last synced/);
  await page.addInitScript(watchFirstPaint);
  const labels = labelReports(page);
  const builds = (BUILDS.length > 0 ? BUILDS : [{ name: '', dir: '' }]).map((b) => ({
    ...b,
    entry: b.dir ? /src="\/assets\/(index-[\w-]+\.js)"/.exec(readFileSync(join(b.dir, 'index.html'), 'utf8'))?.[1] : undefined,
  }));
  const loads = new Map<string, Load[]>(builds.map((b) => [b.name, []]));
  const loadBefore = load();
  for (let i = 0; i < LOADS; i += 1) {
    for (const build of i % 2 ? [...builds].reverse() : builds) {
      if (build.dir) serve(build.dir);
      await page.goto('about:blank');
      // Each build's page at an address of its own: the browser's cache (whose heuristic
      // freshness does not always revalidate a page it holds) never runs the other build's.
      const one = await measure(page, build.dir ? `${url}?build=${build.name}` : url);
      // The build whose entry chunk ran (the page may have come from the browser's cache).
      const ran = builds.find((b) => b.entry && one.resources.some((r) => r.name.endsWith(`/assets/${b.entry}`))) ?? build;
      loads.get(ran.name)!.push(one);
      const calls = one.resources.map((r) => `${shortName(r.name)} ${r.start}–${r.end}`).join(', ');
      print(info, `${ran.name ? `${ran.name} ` : ''}load ${i + 1}${ran !== build ? ` (${build.name} served, the cached page ran)` : ''}: row ${one.row} ms, canvas ${one.canvas} ms | ${calls} | long tasks ${JSON.stringify(one.longTasks)}`);
    }
  }
  print(info, `load average before ${loadBefore}, after ${load()}`);
  for (const [name, list] of loads) summary(info, name, list);
  print(info, `reports asked: ${JSON.stringify([...labels.values()][0]?.slice(0, 4))}`);
  if (PROFILE) {
    if (builds[builds.length - 1]!.dir) serve(builds[builds.length - 1]!.dir);
    await profile(page, url, info);
  }
});
