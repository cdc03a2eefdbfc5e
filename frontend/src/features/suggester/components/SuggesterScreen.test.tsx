import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { makeAccount, makeTask, makeUser } from '@/test/fixtures';
import { callsTo, fail, held, mockApi, ok, type MockCall } from '@/test/fetch-mock';
import { formatNumber } from '@/lib/format/number';
import { renderApp } from '@/test/render';
import { phaseTiming } from '../hooks/usePhaseReplay';
import { timing } from '../wizard';

// The first render compiles the app; the machine may be busy.
jest.setTimeout(40_000);

// The screen's waits, shortened: polls every 100 ms instead of spec §9's 1000 ms (the interval
// itself is polling.test.ts's), saves and store searches 50 ms after the last change. A test
// that looks at a state between two polls holds the next answer back (`held`) until it has.
beforeAll(() => {
  Object.assign(timing, { pollMs: 100, saveDebounceMs: 50, searchDebounceMs: 50, namesDebounceMs: 50 });
  // The phases a poll missed, 100 ms apiece.
  phaseTiming.phaseMs = 100;
});

const PATH = '/keyword-suggester';
const COLLECT = 'POST /api/phrase/getListByShuffleTitlesPopularities/100';
const ESTIMATE = 'POST /api/reports/asa/getEstimatedImpressions';
const STOP = 'GET /api/phrase/suggesterSearches/one/stop/t1';
const account = makeAccount('a1', 'Main', [{ orgId: 42, displayName: 'Cloud Apps' }]);

const keyword = (name: string, popularity: number | null, extra: Record<string, unknown> = {}) => ({
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

const ITEMS = [
  keyword('photo editor', 57, { sources: [{ type: 'hint' }, { type: 'competitor', adamId: '200', name: 'Snapseed' }] }),
  keyword('collage maker', 31, { bidOn: [{ campaignId: '1', campaignName: 'US Brand', adGroupId: '2', adGroupName: 'Exact', matchType: 'EXACT' }] }),
  keyword('selfie camera', 12, { sources: [{ type: 'apple' }], negatedIn: [{ campaignId: '1', campaignName: 'US Brand', adGroupId: null }] }),
  keyword('my photo app', null, { required: true, sources: [{ type: 'required' }] }),
];

/** The estimates the server answers (docs/api/suggester.md: the collection answers 0). */
const ESTIMATES: Record<string, number> = { 'photo editor': 1200, 'collage maker': 340, 'selfie camera': 55 };

/** The estimates route answering `estimates` for the keywords sent, in their order (none: 0). */
const estimatesFrom =
  (estimates: Record<string, number> = ESTIMATES) =>
  (call: MockCall) =>
    ok({ items: (call.body as { keywords: string[] }).keywords.map((keyword) => ({ keyword, impressions: estimates[keyword] ?? 0 })) });

const task = (overrides: Parameters<typeof makeTask>[0] = {}) => makeTask({ id: 't1', kind: 'collect-keywords', message: 'Looking for App Store suggestions', step: 1, totalSteps: 7, ...overrides });
const running = (step: number, message: string) => ({ status: 200, body: { status: 200, message: 'METHOD_IS_EXECUTED', result: { task: task({ step, message, details: { candidates: step * 40 } }) } } });
const finished = ok({ task: task({ step: 7, message: 'Keywords collecting completed!', finish: true }), items: ITEMS });

/** The options as saved by the PUTs so far (merged, nulls removing keys). */
let saved: Record<string, unknown> = {};

interface Step1Mocks {
  options?: Record<string, unknown>;
  /** The measured duration the timing route answers (by default none: a first estimate). */
  duration?: number | null;
  accounts?: ReturnType<typeof makeAccount>[];
  /** How the estimates route answers (by default `ESTIMATES`). */
  estimates?: Parameters<typeof mockApi>[1];
}

function mockStep1({ options = {}, duration = null, accounts = [account], estimates = estimatesFrom() }: Step1Mocks = {}) {
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
function mockCollect(...polls: Parameters<typeof mockApi>[1][]) {
  const queue = [...polls];
  mockApi(COLLECT, (call: MockCall) => {
    if (!call.url.includes('id=')) return ok({ id: 't1' });
    const next = queue.length > 1 ? queue.shift()! : queue[0]!;
    return typeof next === 'function' ? next(call) : next;
  });
}

const action = (name: RegExp | string) => screen.findByRole('button', { name });
const pollsOf = () => callsTo(COLLECT).filter((c) => c.url.includes('id='));

async function pickAppAndCountry() {
  await userEvent.click(await screen.findByTestId('app-picker'));
  await userEvent.click(await screen.findByRole('option', { name: /Snap Photo/ }));
  await userEvent.click(screen.getByTestId('country-picker'));
  await userEvent.click(await screen.findByRole('option', { name: 'United States (US)' }));
}

async function startCollection() {
  renderApp(PATH, makeUser());
  await pickAppAndCountry();
  await userEvent.click(await action('Start collecting keywords'));
}

beforeEach(() => {
  saved = {};
});

describe('keyword suggester, step 1', () => {
  it('shows the five steps and disables the action until the form is valid (spec §5)', async () => {
    mockStep1();
    renderApp(PATH, makeUser());
    expect(await screen.findByText('Search parameters')).toBeInTheDocument();
    for (const name of ['Keyword selection', 'Keyword segmentation', 'Campaign naming', 'Campaign settings']) expect(screen.getByText(name)).toBeInTheDocument();
    expect(await action('Start collecting keywords')).toBeDisabled();
    expect(screen.getByTestId('wizard-hint')).toHaveTextContent('Select app and country');
    expect(screen.queryByRole('button', { name: 'Back' })).not.toBeInTheDocument();
    // The user's defaults fill the negative keywords.
    expect(screen.getByTestId('negative-keywords')).toHaveValue('free');

    await pickAppAndCountry();
    expect(await action('Start collecting keywords')).toBeEnabled();
    // Nothing measured yet: the server's first estimate, said to be one.
    expect(await screen.findByText('Estimated time: about 1 min (estimated from 43 planned calls)')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('radio', { name: 'Keywords' }));
    expect(await action('Start collecting keywords')).toBeDisabled();
    expect(screen.getByTestId('wizard-hint')).toHaveTextContent('Add required keywords');
    await userEvent.type(screen.getByTestId('required-keywords'), 'Photo Editor!{enter}photo editor{enter}{enter}Collage');
    expect(screen.getByTestId('required-keywords-count')).toHaveTextContent('2 keywords');
    expect(await action('Start collecting keywords')).toBeEnabled();

    await userEvent.click(screen.getByRole('radio', { name: 'Competitors' }));
    expect(screen.getByTestId('wizard-hint')).toHaveTextContent('Add at least one competitor to continue');
    expect(await action('Start collecting keywords')).toBeDisabled();
  });

  it('rounds the duration of past runs up to minutes', async () => {
    mockStep1({ duration: 412_000 });
    renderApp(PATH, makeUser());
    await pickAppAndCountry();
    expect(await screen.findByText('Estimated time: 7 min')).toBeInTheDocument();
  });

  it('searches competitors, saves the one added and selects it', async () => {
    mockStep1();
    mockApi('GET /api/competitors/get/100', ok({ items: [] }));
    mockApi('POST /api/competitors/find', ok({ items: [{ adamId: '300', name: 'VSCO', developer: 'Visual Supply' }] }));
    mockApi('POST /api/suggester/competitors/findApp', ok({ items: [{ adamId: '200', name: 'Snapseed', developer: 'Google' }] }));
    mockApi('POST /api/suggester/competitors', ok({ item: { adamId: '200', name: 'Snapseed', developer: 'Google' } }));
    renderApp(PATH, makeUser());
    await pickAppAndCountry();
    await userEvent.click(screen.getByRole('radio', { name: 'Competitors' }));
    expect(await screen.findByText('No competitors saved for this app yet')).toBeInTheDocument();
    // The App Store's suggestions show before any search.
    expect(await screen.findByRole('button', { name: 'Add VSCO' })).toBeEnabled();
    expect(callsTo('POST /api/competitors/find')[0]?.body).toEqual({ adamId: '100', country: 'US' });
    await userEvent.type(screen.getByLabelText('Find a competitor in the App Store'), 'snap');
    await userEvent.click(await screen.findByRole('button', { name: 'Add Snapseed' }));
    expect(await screen.findByRole('checkbox', { name: 'Snapseed' })).toBeChecked();
    expect(callsTo('POST /api/suggester/competitors')[0]?.body).toEqual({ adamId: '100', competitorId: '200', country: 'US' });
    mockCollect(running(1, 'Looking for App Store suggestions'));
    await userEvent.click(await action('Start collecting keywords'));
    await waitFor(() => expect(callsTo(COLLECT)[0]?.body).toMatchObject({ suggestionType: 'competitors', competitors: ['200'] }));
  });

  it('sends readers to the restricted page', async () => {
    mockStep1();
    const { location } = renderApp(PATH, makeUser({ permission: 'reader' }));
    await waitFor(() => expect(location()).toBe('/restricted'));
  });
});

describe('keyword suggester, collection', () => {
  it('starts, shows each phase with its progress while polling, then lists the keywords', async () => {
    mockStep1();
    const magic = held(running(4, 'Doing some magic...'));
    const done = held(finished);
    mockCollect(running(2, 'Exploring your app...'), magic.answer, done.answer);
    await startCollection();

    const [start] = callsTo(COLLECT);
    expect(start!.url).toContain('accountId=a1');
    expect(start!.body).toMatchObject({ country: 'US', suggestionType: 'app', words: [], excludedWords: ['free'], excludedWordsByPopularities: 1, competitors: [] });
    expect(await screen.findByText('Exploring your app...')).toBeInTheDocument();
    expect(screen.getByTestId('collect-percent')).toHaveTextContent('25%');
    expect(screen.getByTestId('wizard-hint')).toHaveTextContent('Keyword research in progress');
    expect(await action('Next step')).toBeDisabled();
    expect(saved['suggester-loader']).toMatchObject({ taskId: 't1', adamId: '100', country: 'US' });
    magic.release();
    expect(await screen.findByText('Doing some magic...')).toBeInTheDocument();
    expect(screen.getByTestId('collect-percent')).toHaveTextContent('50%');

    done.release();
    const table = await screen.findByTestId('keyword-table');
    expect(await screen.findByText('Keywords collecting completed!')).toBeInTheDocument();
    expect(pollsOf()[0]!.url).toContain('id=t1');
    expect(within(table).getAllByRole('row')).toHaveLength(5);
    expect(saved['suggester-loader']).toBeUndefined();
    await waitFor(() => expect(saved['suggester-last-item']).toMatchObject({ step: 2, taskId: 't1' }));
    // The required keyword comes selected.
    expect(screen.getByRole('checkbox', { name: 'Select my photo app' })).toBeChecked();
    expect(screen.getByTestId('keyword-counts')).toHaveTextContent('4 keywords · 4 shown · 1 selected');
    expect(within(table).getByTestId('bid-on')).toHaveTextContent('Bid on · 1');
    expect(within(table).getByTestId('negated')).toHaveTextContent('Negative · 1');
    expect(within(table).getByText('Snapseed')).toBeInTheDocument();
  });

  it('filters, selects in bulk, removes, and carries the selection to step 3', async () => {
    mockStep1();
    mockCollect(finished);
    await startCollection();
    await screen.findByTestId('keyword-table');

    await userEvent.click(screen.getByRole('checkbox', { name: 'Select my photo app' }));
    expect(await action('Next step')).toBeDisabled();
    expect(screen.getByTestId('wizard-hint')).toHaveTextContent('Select at least one keyword');

    await userEvent.type(screen.getByLabelText('Search keywords'), 'photo');
    expect(screen.getByTestId('keyword-counts')).toHaveTextContent('4 keywords · 2 shown · 0 selected');
    await userEvent.click(screen.getByRole('button', { name: 'Select all shown' }));
    expect(screen.getByTestId('keyword-counts')).toHaveTextContent('2 selected');

    await userEvent.click(screen.getByRole('button', { name: 'Clear selection' }));
    await userEvent.clear(screen.getByLabelText('Search keywords'));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select selfie camera' }));
    await userEvent.click(screen.getByRole('button', { name: 'Remove selected' }));
    expect(screen.getByTestId('keyword-counts')).toHaveTextContent('3 keywords · 3 shown · 0 selected · 1 removed');
    expect(screen.queryByText('selfie camera')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('checkbox', { name: 'Select photo editor' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select collage maker' }));
    await userEvent.click(await action('Next step'));

    const review = await screen.findByTestId('selection-review');
    expect(within(review).getByTestId('selection-count')).toHaveTextContent('2 keywords');
    // Both are category terms (a competitor's metadata gave 'photo editor', it names no one).
    expect(within(screen.getByTestId('segment-generic')).getAllByTestId('segment-keyword').map((r) => r.textContent)).toEqual(['photo editor', 'collage maker']);
    await waitFor(() => expect(saved['suggester-last-item']).toMatchObject({ step: 3, taskId: 't1' }));
    expect(within(review).getByTestId('selection-impressions')).toHaveTextContent(formatNumber(1540, 0));
    expect(saved['suggester-entry']).toMatchObject({
      selected: [
        { name: 'photo editor', impressions: 1200 },
        { name: 'collage maker', impressions: 340 },
      ],
      removed: [{ name: 'selfie camera', impressions: 55 }],
    });
    // Step 3 goes on to naming, and back to step 2 without asking.
    expect(await action('Next step')).toBeEnabled();
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByTestId('keyword-table')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("goes back to step 1 with 'Something went wrong' when the collection fails", async () => {
    mockStep1();
    mockCollect(running(1, 'Looking for App Store suggestions'), ok({ task: task({ message: 'Something went wrong', error: 'Apple Ads refused' }) }));
    await startCollection();
    expect(await screen.findByTestId('collection-error')).toHaveTextContent('Something went wrong');
    expect(await action('Start collecting keywords')).toBeEnabled();
    expect(saved['suggester-loader']).toBeUndefined();
  });

  it("shows the server's refusal of a start on step 1", async () => {
    mockStep1();
    mockApi(COLLECT, fail(400, 'This country is not served by the campaign group', [{ field: 'country', message: 'This country is not served by the campaign group' }]));
    await startCollection();
    expect(await screen.findByTestId('collection-error')).toHaveTextContent('This country is not served by the campaign group');
    expect(screen.getByText('Search parameters')).toBeInTheDocument();
    expect(saved['suggester-loader']).toBeUndefined();
  });

  it('shows each phase the polls missed, in order, ending with the finished message (issue 42)', async () => {
    const PHASES = [
      'Looking for App Store suggestions',
      'Exploring your app...',
      'Exploring your competitors...',
      'Doing some magic...',
      'Collecting results...',
      'Getting Search Ads Popularity for all keywords...',
      'Excluding keywords without traffic...',
    ];
    mockStep1();
    // The first poll sees the first phase; the next one the finished task, which kept them all.
    const first = running(1, PHASES[0]!);
    const done = ok({ task: task({ step: 7, message: 'Keywords collecting completed!', finish: true, phases: [...PHASES, 'Keywords collecting completed!'] }), items: ITEMS });
    const later = held(done);
    mockCollect(first, later.answer);
    await startCollection();
    const panel = await screen.findByTestId('collecting');
    expect(within(panel).getByTestId('collect-phase')).toHaveTextContent(PHASES[0]!);
    // Every text the phase line shows from here on.
    const seen: string[] = [PHASES[0]!];
    const observer = new MutationObserver(() => {
      const text = panel.querySelector('[data-testid="collect-phase"]')?.textContent;
      if (text && seen.at(-1) !== text) seen.push(text);
    });
    observer.observe(panel, { subtree: true, childList: true, characterData: true });
    later.release();
    expect(await screen.findByTestId('keyword-table', {}, { timeout: 15_000 })).toBeInTheDocument();
    observer.disconnect();
    expect(seen).toEqual([...PHASES, 'Keywords collecting completed!']);
  });

  it('skips network errors and METHOD_IS_EXECUTED while polling', async () => {
    mockStep1();
    mockCollect({ raw: '' }, running(3, 'Doing some magic...'), finished);
    await startCollection();
    expect(await screen.findByTestId('keyword-table', {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(pollsOf()).toHaveLength(3);
  });

  it('stops after the confirmation of spec §2', async () => {
    mockStep1();
    mockCollect(running(2, 'Exploring your app...'));
    mockApi(STOP, ok({ item: task({ error: 'Stopped', details: { candidates: 80, stopped: true } }) }));
    await startCollection();
    await userEvent.click(await screen.findByRole('button', { name: 'Stop' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Are you sure you want to stop this task?');
    expect(dialog).toHaveTextContent('Keyword collection will be stopped and all progress will be reset.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(callsTo(STOP)).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Stop' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Stop collection' }));
    expect(await action('Start collecting keywords')).toBeEnabled();
    expect(callsTo(STOP)).toHaveLength(1);
    expect(saved['suggester-loader']).toBeUndefined();
    const polls = pollsOf().length;
    await act(() => new Promise((resolve) => setTimeout(resolve, 5 * timing.pollMs)));
    expect(pollsOf()).toHaveLength(polls);
  });

  it('goes back from step 2 after the confirmation: stops the job and clears the saved place', async () => {
    mockStep1();
    mockCollect(running(2, 'Exploring your app...'));
    mockApi(STOP, ok({ item: task({ error: 'Stopped' }) }));
    await startCollection();
    await screen.findByText('Exploring your app...');
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Are you sure you want to go back?');
    expect(dialog).toHaveTextContent('The progress of this step will be reset');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Return to the previous step' }));
    expect(await action('Start collecting keywords')).toBeEnabled();
    await waitFor(() => expect(callsTo(STOP)).toHaveLength(1));
    await waitFor(() => expect(saved).toEqual({}));
    // The form is kept.
    expect(screen.getByTestId('app-picker')).toHaveValue('Snap Photo');
  });
});

describe('keyword suggester, estimated impressions', () => {
  /** The figures of the impressions column, top to bottom. */
  const impressionsColumn = () =>
    within(screen.getByTestId('keyword-table'))
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.querySelectorAll('td')[4]!.textContent);
  const namesColumn = () =>
    within(screen.getByTestId('keyword-table'))
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.querySelectorAll('td')[1]!.textContent);

  it('asks once per result in chunks of at most 1,000, fills the column and sorts by the estimates', async () => {
    // 2,001 keywords: popularity falls as the index grows, the estimate rises with it.
    const many = Array.from({ length: 2001 }, (_, i) => keyword(`kw ${String(i).padStart(4, '0')}`, 100 - Math.floor(i / 21)));
    // One name the server answers normalised (spec §5): matched by its normalised form.
    many[1] = keyword('Snap-Cam', 100);
    const estimates = Object.fromEntries(many.map((k, i) => [k.name, i * 10]));
    mockStep1({
      estimates: (call: MockCall) =>
        ok({
          items: (call.body as { keywords: string[] }).keywords.map((name) => ({
            keyword: name === 'Snap-Cam' ? 'snapcam' : name,
            impressions: name === 'Snap-Cam' ? 777_777 : (estimates[name] ?? 0),
          })),
        }),
    });
    mockCollect(ok({ task: task({ step: 7, message: 'Keywords collecting completed!', finish: true }), items: many }));
    await startCollection();
    // 2,001 rows to parse and sort: generous waits for a busy machine.
    await screen.findByTestId('keyword-table', {}, { timeout: 15_000 });
    await waitFor(() => expect(screen.queryAllByTestId('estimate-pending')).toHaveLength(0), { timeout: 15_000 });

    const sent = callsTo(ESTIMATE);
    expect(sent.map((c) => (c.body as { keywords: string[] }).keywords.length)).toEqual([1000, 1000, 1]);
    expect(sent.flatMap((c) => (c.body as { keywords: string[] }).keywords)).toEqual(many.map((k) => k.name));
    for (const call of sent) {
      expect(call.url).toContain('accountId=a1');
      expect(call.body).toMatchObject({ countries: ['US'], type: 'EXACT' });
    }
    // Sorted by popularity: the first rows, with their estimates.
    expect(namesColumn().slice(0, 3)).toEqual(['kw 0000', 'Snap-Cam', 'kw 0002']);
    expect(impressionsColumn().slice(0, 3)).toEqual([formatNumber(0, 0), formatNumber(777_777, 0), formatNumber(20, 0)]);

    await userEvent.click(screen.getByRole('button', { name: 'Est. impressions' }));
    expect(namesColumn().slice(0, 3)).toEqual(['Snap-Cam', 'kw 2000', 'kw 1999']);
    expect(impressionsColumn().slice(0, 3)).toEqual([formatNumber(777_777, 0), formatNumber(20_000, 0), formatNumber(19_990, 0)]);
    await userEvent.click(screen.getByRole('button', { name: 'Est. impressions' }));
    expect(namesColumn()[0]).toBe('kw 0000');

    // Selecting carries the estimate; nothing asks again.
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select kw 0000' }));
    await userEvent.click(screen.getByRole('button', { name: 'Est. impressions' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Snap-Cam' }));
    await userEvent.click(await action('Next step'));
    const review = await screen.findByTestId('selection-review');
    expect(within(review).getByTestId('selection-impressions')).toHaveTextContent(formatNumber(777_777, 0));
    expect(saved['suggester-entry']).toMatchObject({ selected: [{ name: 'kw 0000', impressions: 0 }, { name: 'Snap-Cam', impressions: 777_777 }] });
    expect(callsTo(ESTIMATE)).toHaveLength(3);
  }, 80_000);

  it('shows a placeholder, not 0, until the estimates come, then fills the selection and saves it', async () => {
    let answer: (value: ReturnType<typeof ok>) => void = () => undefined;
    mockStep1({
      estimates: (call: MockCall) =>
        new Promise((resolve) => {
          answer = () => resolve(estimatesFrom()(call));
        }),
    });
    mockCollect(finished);
    await startCollection();
    await screen.findByTestId('keyword-table');
    expect(screen.getAllByTestId('estimate-pending')).toHaveLength(4);
    expect(impressionsColumn()).toEqual(['', '', '', '']);
    // The required keyword comes selected before its estimate is known.
    expect(screen.getByRole('checkbox', { name: 'Select my photo app' })).toBeChecked();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select photo editor' }));

    act(() => answer(ok()));
    await waitFor(() => expect(screen.queryAllByTestId('estimate-pending')).toHaveLength(0));
    expect(impressionsColumn()).toEqual([formatNumber(1200, 0), formatNumber(340, 0), formatNumber(55, 0), formatNumber(0, 0)]);
    // The selection takes the estimates, and is saved with them.
    await waitFor(
      () =>
        expect(saved['suggester-entry']).toMatchObject({
          selected: [
            { name: 'my photo app', impressions: 0 },
            { name: 'photo editor', impressions: 1200 },
          ],
        }),
      { timeout: 5000 },
    );
    expect(callsTo(ESTIMATE)).toHaveLength(1);
  });

  it('leaves 0 and shows nothing alarming when the estimates fail', async () => {
    mockStep1({ estimates: fail(500, 'Internal server error') });
    mockCollect(finished);
    await startCollection();
    await screen.findByTestId('keyword-table');
    await waitFor(() => expect(screen.queryAllByTestId('estimate-pending')).toHaveLength(0));
    expect(impressionsColumn()).toEqual(Array(4).fill(formatNumber(0, 0)));
    expect(screen.queryByText('Internal server error')).not.toBeInTheDocument();
    // The only notice is the collection's own.
    for (const notice of screen.queryAllByRole('alert')) expect(notice).toHaveTextContent('Keywords collecting completed!');
    // The list works as before.
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select photo editor' }));
    expect(screen.getByTestId('keyword-counts')).toHaveTextContent('4 keywords · 4 shown · 2 selected');
    expect(await action('Next step')).toBeEnabled();
    expect(callsTo(ESTIMATE)).toHaveLength(1);
  });
});

describe('keyword suggester, saved place', () => {
  const now = Date.now();
  const entry = (savedAt: number) => ({
    accountId: 'a1',
    orgId: null,
    app: { adamId: '100', name: 'Snap Photo', developer: 'Snap Inc', icon: null, countries: null },
    country: 'US',
    searchParameters: { suggestionType: 'app', requiredKeywords: [], negativeKeywords: [] },
    settings: null,
    competitors: [],
    selected: [{ name: 'collage maker', impressions: 0 }],
    removed: [],
    savedAt: new Date(savedAt).toISOString(),
  });

  it('resumes a running collection after a reload, polling at once', async () => {
    mockStep1({
      options: {
        'suggester-entry': entry(now - 60_000),
        'suggester-loader': { taskId: 't1', adamId: '100', country: 'US', startedAt: new Date(now - 60_000).toISOString() },
        'suggester-last-item': { step: 2, taskId: null, savedAt: new Date(now - 60_000).toISOString() },
      },
    });
    const done = held(finished);
    mockCollect(running(5, 'Collecting results...'), done.answer);
    renderApp(PATH, makeUser());
    expect(await screen.findByText('Collecting results...')).toBeInTheDocument();
    expect(callsTo(COLLECT).every((c) => c.url.includes('id=t1'))).toBe(true);
    done.release();
    await screen.findByTestId('keyword-table');
    // The saved selection is kept.
    expect(screen.getByRole('checkbox', { name: 'Select collage maker' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Select my photo app' })).not.toBeChecked();
  });

  it('returns to step 3 with the saved result', async () => {
    mockStep1({ options: { 'suggester-entry': entry(now - 60_000), 'suggester-last-item': { step: 3, taskId: 't1', savedAt: new Date(now - 60_000).toISOString() } } });
    mockCollect(finished);
    renderApp(PATH, makeUser());
    const review = await screen.findByTestId('selection-review');
    expect(within(review).getByTestId('selection-count')).toHaveTextContent('1 keyword');
    expect(within(await screen.findByTestId('segment-generic')).getByText('collage maker')).toBeInTheDocument();
    // The resumed result asks its estimates; the saved selection takes them.
    expect(await within(review).findByText(formatNumber(340, 0), { selector: 'span' })).toBeInTheDocument();
    expect(callsTo(ESTIMATE)).toHaveLength(1);
    expect(callsTo(ESTIMATE)[0]!.body).toEqual({ keywords: ITEMS.map((k) => k.name), countries: ['US'], type: 'EXACT' });
    await waitFor(() => expect(saved['suggester-entry']).toMatchObject({ selected: [{ name: 'collage maker', impressions: 340 }] }));
  });

  it('ignores and clears what is 24 h old', async () => {
    mockStep1({ options: { 'suggester-entry': entry(now - 25 * 3600_000), 'suggester-loader': { taskId: 't1', adamId: '100', country: 'US', startedAt: new Date(now - 25 * 3600_000).toISOString() } } });
    renderApp(PATH, makeUser());
    expect(await action('Start collecting keywords')).toBeDisabled();
    expect(screen.getByTestId('wizard-hint')).toHaveTextContent('Select app and country');
    await waitFor(() => expect(saved).toEqual({}));
    expect(callsTo(COLLECT)).toHaveLength(0);
  });

  it('resets when the active campaign group is outside the account', async () => {
    mockStep1({ accounts: [account, makeAccount('a2', 'Second', [{ orgId: 7, displayName: 'Games' }])] });
    mockCollect(finished);
    await startCollection();
    await screen.findByTestId('keyword-table');
    await waitFor(() => expect(saved['suggester-last-item']).toMatchObject({ taskId: 't1' }));
    act(() => {
      window.localStorage.setItem('searchdeck:active-account:ann@example.com', JSON.stringify({ accountId: 'a2', orgId: '7' }));
      window.dispatchEvent(new Event('searchdeck:active-account-changed'));
    });
    expect(await action('Start collecting keywords')).toBeDisabled();
    expect(screen.getByTestId('app-picker')).toHaveValue('');
    await waitFor(() => expect(saved).toEqual({}));
  });

  it("resets another account's saved place", async () => {
    mockStep1({ options: { 'suggester-entry': { ...entry(now - 60_000), accountId: 'other' } } });
    renderApp(PATH, makeUser());
    expect(await action('Start collecting keywords')).toBeDisabled();
    await waitFor(() => expect(saved).toEqual({}));
  });
});
