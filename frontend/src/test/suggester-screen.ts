/**
 * What the suggester screen's tests share (`features/suggester/components/SuggesterScreen*.test.tsx`,
 * one file per part of the wizard): the shortened waits, the collection's keywords and
 * answers, the step-1 routes mocked, and the clicks that start a collection.
 */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { phaseTiming } from '@/features/suggester/hooks/usePhaseReplay';
import { timing } from '@/features/suggester/wizard';
import { callsTo, mockApi, ok, type MockCall } from './fetch-mock';
import { makeAccount, makeTask, makeUser } from './fixtures';
import { renderApp } from './render';

/**
 * The screen's waits, shortened: polls every 100 ms instead of the 1000 ms of
 * docs/product.md#9-suggester (the interval itself is polling.test.ts's), saves and store searches
 * 50 ms after the last change. A test that looks at a state between two polls holds the next answer
 * back (`held`) until it has.
 */
export function shortenWaits() {
  Object.assign(timing, { pollMs: 100, saveDebounceMs: 50, searchDebounceMs: 50, namesDebounceMs: 50 });
  // The phases a poll missed, 100 ms apiece.
  phaseTiming.phaseMs = 100;
}

export const PATH = '/keyword-suggester';
export const COLLECT = 'POST /api/phrase/getListByShuffleTitlesPopularities/100';
export const ESTIMATE = 'POST /api/reports/asa/getEstimatedImpressions';
export const STOP = 'GET /api/phrase/suggesterSearches/one/stop/t1';
export const account = makeAccount('a1', 'Main', [{ orgId: 42, displayName: 'Cloud Apps' }]);

export const keyword = (name: string, popularity: number | null, extra: Record<string, unknown> = {}) => ({
  name,
  popularity,
  applePopularity: popularity === null ? null : Math.ceil(popularity / 20),
  impressions: 0,
  sources: [{ type: 'hint' }],
  required: false,
  bidOn: [],
  negatedIn: [],
  ...extra,
});

export const ITEMS = [
  keyword('photo editor', 57, { sources: [{ type: 'hint' }, { type: 'competitor', adamId: '200', name: 'Snapseed' }] }),
  keyword('collage maker', 31, { bidOn: [{ campaignId: '1', campaignName: 'US Brand', adGroupId: '2', adGroupName: 'Exact', matchType: 'EXACT' }] }),
  keyword('selfie camera', 12, { sources: [{ type: 'apple' }], negatedIn: [{ campaignId: '1', campaignName: 'US Brand', adGroupId: null }] }),
  keyword('my photo app', null, { required: true, sources: [{ type: 'required' }] }),
];

/** The estimates the server answers (docs/api/suggester.md: the collection answers 0). */
export const ESTIMATES: Record<string, number> = { 'photo editor': 1200, 'collage maker': 340, 'selfie camera': 55 };

/** The estimates route answering `estimates` for the keywords sent, in their order (none: 0). */
export const estimatesFrom =
  (estimates: Record<string, number> = ESTIMATES) =>
  (call: MockCall) =>
    ok({ items: (call.body as { keywords: string[] }).keywords.map((keyword) => ({ keyword, impressions: estimates[keyword] ?? 0 })) });

export const task = (overrides: Parameters<typeof makeTask>[0] = {}) => makeTask({ id: 't1', kind: 'collect-keywords', message: 'Looking for App Store suggestions', step: 1, totalSteps: 7, ...overrides });
export const running = (step: number, message: string) => ({ status: 200, body: { status: 200, message: 'METHOD_IS_EXECUTED', result: { task: task({ step, message, details: { candidates: step * 40 } }) } } });
export const finished = ok({ task: task({ step: 7, message: 'Keywords collecting completed!', finish: true }), items: ITEMS });

/** The options as saved by the PUTs so far (merged, nulls removing keys). */
export let saved: Record<string, unknown> = {};

export interface Step1Mocks {
  options?: Record<string, unknown>;
  /** The measured duration the timing route answers (by default none: a first estimate). */
  duration?: number | null;
  accounts?: ReturnType<typeof makeAccount>[];
  /** How the estimates route answers (by default `ESTIMATES`). */
  estimates?: Parameters<typeof mockApi>[1];
}

export function mockStep1({ options = {}, duration = null, accounts = [account], estimates = estimatesFrom() }: Step1Mocks = {}) {
  saved = { ...options };
  mockApi(ESTIMATE, estimates);
  mockApi('GET /api/account/getAll', ok({ items: accounts }));
  mockApi('GET /api/options/front', ok({ item: options, version: 1 }));
  mockApi('PUT /api/options/front', (call: MockCall) => {
    for (const [key, value] of Object.entries(call.body as Record<string, unknown>)) {
      if (value === null) delete saved[key];
      else saved[key] = value;
    }
    return ok({ item: saved, version: 2 });
  });
  mockApi('GET /api/keyword/default', ok({ item: { suggestionType: 'app', excludedWordsByPopularities: 1, withAggregation: true, withoutDescription: false, withoutApps: false, withoutShuffle: false, negativeKeywords: ['free'] } }));
  mockApi('GET /api/asa/apps', ok({ items: [{ adamId: '100', appName: 'Snap Photo', developerName: 'Snap Inc', orgId: '42' }] }));
  mockApi('GET /api/country/allWithCodes', ok({ items: [{ code: 'US', name: 'United States' }, { code: 'GB', name: 'United Kingdom' }] }));
  const timing = duration === null ? { duration: 8_600, estimated: true, calls: 43 } : { duration, estimated: false, calls: null };
  mockApi('GET /api/timings/app/US', ok(timing));
  mockApi('GET /api/timings/keywords/US', ok(timing));
  mockApi('GET /api/timings/competitors/US', ok(timing));
}

/** Answers the start, then each poll in turn (the last one for every later poll). */
export function mockCollect(...polls: Parameters<typeof mockApi>[1][]) {
  const queue = [...polls];
  mockApi(COLLECT, (call: MockCall) => {
    if (!call.url.includes('id=')) return ok({ id: 't1' });
    const next = queue.length > 1 ? queue.shift()! : queue[0]!;
    return typeof next === 'function' ? next(call) : next;
  });
}

export const action = (name: RegExp | string) => screen.findByRole('button', { name });
export const pollsOf = () => callsTo(COLLECT).filter((c) => c.url.includes('id='));

export async function pickAppAndCountry() {
  await userEvent.click(await screen.findByTestId('app-picker'));
  await userEvent.click(await screen.findByRole('option', { name: /Snap Photo/ }));
  await userEvent.click(screen.getByTestId('country-picker'));
  await userEvent.click(await screen.findByRole('option', { name: 'United States (US)' }));
}

export async function startCollection() {
  renderApp(PATH, makeUser());
  await pickAppAndCountry();
  await userEvent.click(await action('Start collecting keywords'));
}

/** Forgets the options saved by an earlier test. */
export function resetSaved() {
  saved = {};
}
