import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CreationProgress } from '@/api/generated/types.gen';
import { creationDetails, makeAccount, makeTask, makeUser } from '@/test/fixtures';
import { taskTiming } from '@/features/tasks';
import { callsTo, fail, held, mockApi, ok, type MockCall } from '@/test/fetch-mock';
import { renderApp } from '@/test/render';
import { timing } from '../wizard';

// The first render compiles the app; the machine may be busy.
jest.setTimeout(60_000);

// The screen's waits, shortened: saves and the names check 50 ms after the last change, the
// creation's task polled every 50 ms (the app's are 800, 400 and 1000 ms). The progress
// between two polls is held on screen (`held`) until the test has seen it.
beforeAll(() => {
  Object.assign(timing, { pollMs: 100, saveDebounceMs: 50, searchDebounceMs: 50, namesDebounceMs: 50 });
  taskTiming.pollMs = 50;
});

const PATH = '/keyword-suggester';
const COLLECT = 'POST /api/phrase/getListByShuffleTitlesPopularities/100';
const EXISTS = 'POST /api/asa/campaigns/exists';
const CREATE = 'PUT /api/asa/campaigns/asa/all';
const TASK = 'GET /api/tasks/c1';
const PAGES = 'GET /api/productPages/all/adam/100';
const account = makeAccount('a1', 'Main', [{ orgId: 42, displayName: 'Cloud Apps' }]);

const keyword = (name: string, sources: { type: string; adamId?: string; name?: string }[] = [{ type: 'hint' }]) => ({
  name,
  popularity: 40,
  applePopularity: 2,
  impressions: 0,
  sources,
  required: false,
  bidOn: [],
  negatedIn: [],
});

const SNAPSEED = { type: 'competitor', adamId: '200', name: 'Snapseed' };
const ITEMS = [
  keyword('snap photo editor'),
  keyword('snapseed filters', [SNAPSEED]),
  keyword('photo editor', [{ type: 'hint' }, SNAPSEED]),
  keyword('collage maker'),
];
const finished = ok({ task: makeTask({ id: 't1', kind: 'collect-keywords', step: 7, totalSteps: 7, finish: true, message: 'Keywords collecting completed!' }), items: ITEMS });

let saved: Record<string, unknown> = {};
const now = Date.now();

function entry(selected: string[]) {
  return {
    accountId: 'a1',
    orgId: '42',
    app: { adamId: '100', name: 'Snap Photo', developer: 'Snap Inc', icon: null, countries: ['US', 'GB'] },
    country: 'US',
    searchParameters: { suggestionType: 'app', requiredKeywords: [], negativeKeywords: [] },
    settings: null,
    competitors: [],
    selected: selected.map((name) => ({ name, impressions: 10 })),
    removed: [],
    savedAt: new Date(now - 60_000).toISOString(),
  };
}

/** The suggester resumed on `step` with `selected` (the collection's result t1). */
function mockSaved(step: number, selected: string[] = ITEMS.map((k) => k.name), lastItem: Record<string, unknown> = {}) {
  const options = { 'suggester-entry': entry(selected), 'suggester-last-item': { step, taskId: 't1', savedAt: new Date(now - 60_000).toISOString(), ...lastItem } };
  saved = { ...options };
  mockApi('GET /api/account/getAll', ok({ items: [account] }));
  mockApi('GET /api/options/front', ok({ item: options, version: 1 }));
  mockApi('PUT /api/options/front', (call: MockCall) => {
    for (const [key, value] of Object.entries(call.body as Record<string, unknown>)) {
      if (value === null) delete saved[key];
      else saved[key] = value;
    }
    return ok({ item: saved, version: 2 });
  });
  mockApi('GET /api/keyword/default', ok({ item: { suggestionType: 'app', excludedWordsByPopularities: 1, withAggregation: true, withoutDescription: false, withoutApps: false, withoutShuffle: false, negativeKeywords: [] } }));
  mockApi('GET /api/asa/apps', ok({ items: [{ adamId: '100', appName: 'Snap Photo', developerName: 'Snap Inc', countryOrRegionCodes: ['US', 'GB'] }] }));
  mockApi('GET /api/country/allWithCodes', ok({ items: [{ code: 'US', name: 'United States' }, { code: 'GB', name: 'United Kingdom' }, { code: 'FR', name: 'France' }] }));
  mockApi('GET /api/timings/app/US', ok({ duration: null, estimated: false, calls: null }));
  mockApi('POST /api/reports/asa/getEstimatedImpressions', (call: MockCall) => ok({ items: (call.body as { keywords: string[] }).keywords.map((k) => ({ keyword: k, impressions: 10 })) }));
  mockApi(COLLECT, finished);
  mockApi(EXISTS, (call: MockCall) => ok({ items: (call.body as { names: string[] }).names.map((name) => ({ name, exists: name === 'Snap Photo - US - Brand - Exact', campaignId: name === 'Snap Photo - US - Brand - Exact' ? '9001' : null })) }));
  mockApi(PAGES, ok({ items: [{ id: 'default', name: 'Default', state: 'VISIBLE', deepLink: null, isDefault: true }, { id: 'cpp1', name: 'Summer page', state: 'VISIBLE', deepLink: null, isDefault: false }] }));
}

const action = (name: RegExp | string) => screen.findByRole('button', { name });
const segment = (id: string) => screen.findByTestId(`segment-${id}`);
const keywordsIn = async (id: string) => within(await segment(id)).queryAllByTestId('segment-keyword').map((r) => r.textContent);

beforeEach(() => {
  saved = {};
});

describe('step 3, keyword segmentation', () => {
  it('splits the selection into brand, competitor and generic segments; moves keywords and makes segments; saves them', async () => {
    mockSaved(3);
    renderApp(PATH, makeUser());
    expect(await keywordsIn('brand')).toEqual(['snap photo editor']);
    expect(await keywordsIn('competitor')).toEqual(['snapseed filters']);
    expect(await keywordsIn('generic')).toEqual(['photo editor', 'collage maker']);
    expect(screen.getByTestId('wizard-hint')).toHaveTextContent('3 campaigns in total');

    // A manual segment with the ticked keyword.
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select collage maker' }));
    expect(screen.getByTestId('segment-ticked')).toHaveTextContent('1 keyword ticked');
    await userEvent.type(screen.getByLabelText('New segment name'), 'Collage');
    await userEvent.click(screen.getByRole('button', { name: 'Add segment with the ticked keywords' }));
    expect(await keywordsIn('manual-1')).toEqual(['collage maker']);
    expect(within(await segment('manual-1')).getByText('Collage')).toBeInTheDocument();
    // Names are unique among segments.
    await userEvent.type(screen.getByLabelText('New segment name'), 'brand');
    expect(screen.getByText('A segment with this name already exists')).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('New segment name'));

    // Bulk move to Brand.
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select photo editor' }));
    await userEvent.click(screen.getByTestId('segment-move-target'));
    await userEvent.click(await screen.findByRole('option', { name: 'Brand' }));
    await userEvent.click(screen.getByRole('button', { name: 'Move' }));
    expect(await keywordsIn('brand')).toEqual(['snap photo editor', 'photo editor']);
    expect(await keywordsIn('generic')).toEqual([]);
    expect(screen.getByTestId('wizard-hint')).toHaveTextContent('3 campaigns in total');

    // Match types per segment.
    await userEvent.click(within(await segment('brand')).getByText('Exact + Broad'));

    await waitFor(
      () =>
        expect(saved['suggester-entry']).toMatchObject({
          keywordGroups: { id: 't1', manualSegmentation: true, segments: [{ id: 'brand', match: 'BOTH' }, { id: 'competitor' }, { id: 'generic' }, { id: 'manual-1', kind: 'manual', name: 'Collage' }] },
          selected: [
            { name: 'snap photo editor', group: 'brand' },
            { name: 'snapseed filters', group: 'competitor' },
            { name: 'photo editor', group: 'brand' },
            { name: 'collage maker', group: 'manual-1' },
          ],
        }),
      { timeout: 3000 },
    );

    // Reset to automatic.
    await userEvent.click(screen.getByRole('button', { name: 'Reset to automatic' }));
    expect(await keywordsIn('generic')).toEqual(['photo editor', 'collage maker']);
    expect(screen.queryByTestId('segment-manual-1')).not.toBeInTheDocument();
  });

  it("disables 'Next step' without selected keywords (spec §5)", async () => {
    mockSaved(3, []);
    renderApp(PATH, makeUser());
    await screen.findByTestId('segmentation');
    expect(await action('Next step')).toBeDisabled();
    expect(screen.getByTestId('wizard-hint')).toHaveTextContent('Select at least one keyword');
  });
});

describe('step 4, campaign naming', () => {
  it('names a campaign per segment from the pattern, flags used and repeated names, and saves the edits', async () => {
    mockSaved(3);
    renderApp(PATH, makeUser());
    await segment('brand');
    await userEvent.click(await action('Next step'));
    const table = await screen.findByTestId('naming-table');
    const brand = within(table).getByRole('textbox', { name: 'Campaign name for Brand' });
    expect(brand).toHaveValue('Snap Photo - US - Brand - Exact');
    expect(within(table).getByRole('textbox', { name: 'Campaign name for Generic' })).toHaveValue('Snap Photo - US - Generic - Exact');
    expect(screen.getByTestId('campaign-total')).toHaveTextContent('3 campaigns in total');

    // The campaign group already has the brand name (asked once the names settle).
    expect(await screen.findByText('A campaign with this name already exists')).toBeInTheDocument();
    expect(callsTo(EXISTS).at(-1)!.url).toContain('accountId=a1');
    expect(callsTo(EXISTS).at(-1)!.url).toContain('orgId=42');
    expect(await action('Next step')).toBeDisabled();
    expect(screen.getByTestId('wizard-hint')).toHaveTextContent('Fix the campaign names to continue');

    // Twice in the list.
    await userEvent.clear(brand);
    await userEvent.type(brand, 'Snap Photo - US - Generic - Exact');
    expect(await screen.findAllByText('This name is used twice in the list')).toHaveLength(2);

    await userEvent.clear(brand);
    await userEvent.type(brand, 'US Brand');
    await waitFor(() => expect(screen.queryByText(/already exists|used twice/)).not.toBeInTheDocument());
    expect(await action('Next step')).toBeEnabled();

    // The pattern renames the others, not the typed one.
    await userEvent.clear(screen.getByTestId('name-pattern'));
    await userEvent.type(screen.getByTestId('name-pattern'), '{{country} {{segment}');
    expect(within(table).getByRole('textbox', { name: 'Campaign name for Generic' })).toHaveValue('US Generic');
    expect(brand).toHaveValue('US Brand');
    await waitFor(() => expect(saved['suggester-entry']).toMatchObject({ campaigns: { pattern: '{country} {segment}', edits: { brand: 'US Brand' } } }), { timeout: 3000 });
    expect(saved['suggester-last-item']).toMatchObject({ step: 4 });
  });
});

describe('step 5, campaign settings and creation', () => {
  async function toSettings() {
    renderApp(PATH, makeUser());
    await segment('brand');
    await userEvent.click(await action('Next step'));
    const brand = await screen.findByRole('textbox', { name: 'Campaign name for Brand' });
    await userEvent.clear(brand);
    await userEvent.type(brand, 'US Brand');
    await waitFor(() => expect(screen.queryByText(/already exists/)).not.toBeInTheDocument());
    await userEvent.click(await action('Next step'));
    await screen.findByTestId('campaign-settings');
  }

  async function fillMoney() {
    await userEvent.type(screen.getByLabelText('Daily budget'), '50');
    await userEvent.type(screen.getByLabelText('Default CPT bid'), '1.2');
  }

  it('validates the money fields with the server’s rules, creates, polls the progress and resets', async () => {
    const scrolled: Element[] = [];
    jest.spyOn(window.HTMLElement.prototype, 'scrollIntoView').mockImplementation(function (this: Element) {
      scrolled.push(this);
    });
    mockSaved(3);
    mockApi(CREATE, ok({ id: 'c1' }));
    const task = (details: Partial<CreationProgress>, extra: Record<string, unknown> = {}) => ok({ item: makeTask({ id: 'c1', kind: 'create-campaigns', message: 'Adding keywords...', step: 2, totalSteps: 7, details: creationDetails(details), ...extra }) });
    const finished = held(
      task(
        {
          groupsCreated: 3,
          groupsTotal: 3,
          campaignsCreated: 4,
          campaignsTotal: 4,
          finish: true,
          errorsMethod: [],
          rejected: [{ campaign: 'US Brand', adGroup: 'Exact', text: 'snap photo editor', matchType: 'EXACT', message: 'Keyword is not allowed' }],
          // Every campaign made, the discovery campaign last (step 5 said '4 campaigns in total').
          campaignsMapping: [
            { name: 'US Brand', campaignId: '7001', adGroups: [] },
            { name: 'Snap Photo - US - Competitor - Exact', campaignId: '7002', adGroups: [] },
            { name: 'Snap Photo - US - Generic - Exact', campaignId: '7003', adGroups: [] },
            { name: 'Snap Photo - US - Discovery', campaignId: '7004', adGroups: [] },
          ],
          discoveryCampaignId: '7004',
        },
        { finish: true, message: 'Campaigns created' },
      ),
    );
    mockApi(TASK, task({ groupsCreated: 1, groupsTotal: 3, campaignsCreated: 0, campaignsTotal: 4 }), finished.answer);
    await toSettings();
    expect(screen.getByTestId('wizard-hint')).toHaveTextContent('4 campaigns in total');
    expect(screen.getByRole('switch', { name: /Create paused/ })).toBeChecked();

    // Nothing is sent while a field is wrong.
    await userEvent.type(screen.getByLabelText('Daily budget'), '0.5');
    await userEvent.type(screen.getByLabelText('Default CPT bid'), '1.234');
    await userEvent.click(await action('Create campaigns'));
    expect(await screen.findByText('Daily budget must be at least $1.00')).toBeInTheDocument();
    // The field's own name in its message (issue 42: one name, 'Default CPT bid').
    expect(screen.getByText(/^Default CPT bid has at most 2 decimals in USD/)).toBeInTheDocument();
    expect(screen.queryByText(/^Default bid /)).not.toBeInTheDocument();
    expect(callsTo(CREATE)).toHaveLength(0);

    await userEvent.clear(screen.getByLabelText('Daily budget'));
    await userEvent.clear(screen.getByLabelText('Default CPT bid'));
    await fillMoney();
    await userEvent.type(screen.getByLabelText('CPA goal (optional)'), '3');
    await userEvent.click(screen.getByTestId('settings-product-page'));
    await userEvent.click(await screen.findByRole('option', { name: 'Summer page' }));
    await userEvent.click(await action('Create campaigns'));

    await screen.findByTestId('creation');
    expect(callsTo(CREATE)).toHaveLength(1);
    // A reload from here would show this creation's progress.
    await waitFor(() => expect(saved['suggester-last-item']).toMatchObject({ step: 5, creating: 'c1' }));
    const call = callsTo(CREATE)[0]!;
    expect(call.url).toContain('accountId=a1');
    expect(call.url).toContain('orgId=42');
    const body = call.body as { adamId: string; campaigns: { name: string; status: string; dailyBudgetAmount: unknown; countriesOrRegions: string[]; groups: { name: string; defaultBidAmount: unknown; cpaGoal: unknown; keywords: { text: string }[] }[] }[]; discovery: { name: string } | null; productPageId: string | null };
    expect(body.adamId).toBe('100');
    expect(body.campaigns.map((c) => c.name)).toEqual(['US Brand', 'Snap Photo - US - Competitor - Exact', 'Snap Photo - US - Generic - Exact']);
    expect(body.campaigns[0]).toMatchObject({ status: 'PAUSED', countriesOrRegions: ['US'], dailyBudgetAmount: { amount: '50.00', currency: 'USD' } });
    expect(body.campaigns[0]!.groups[0]).toMatchObject({ name: 'Exact', defaultBidAmount: { amount: '1.20', currency: 'USD' }, cpaGoal: { amount: '3.00', currency: 'USD' }, keywords: [{ text: 'snap photo editor' }] });
    expect(body.discovery).toMatchObject({ name: 'Snap Photo - US - Discovery' });
    expect(body.productPageId).toBe('cpp1');

    // The progress bars (groups, then campaigns), then the result.
    expect(await screen.findByTestId('creation-groups')).toHaveTextContent('1 / 3');
    expect(screen.getByTestId('creation-campaigns')).toHaveTextContent('0 / 4');
    finished.release();
    const done = await screen.findByTestId('creation-done');
    expect(within(done).getByText('US Brand')).toBeInTheDocument();
    // Every campaign counted and listed, the discovery campaign too; the notice comes before
    // the emptied step 1 and is scrolled into view.
    expect(done).toHaveTextContent('4 campaigns were created.');
    expect(within(done).getByText('Snap Photo - US - Discovery')).toBeInTheDocument();
    expect(done.compareDocumentPosition(await screen.findByTestId('search-parameters')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(scrolled).toContain(done);
    expect(within(done).getByRole('link', { name: 'Open the campaigns' })).toHaveAttribute('href', '/optimization/a1/42');
    // The state resets (docs/product.md#4-suggester): step 1, nothing saved.
    expect(await action('Start collecting keywords')).toBeInTheDocument();
    await waitFor(() => expect(saved['suggester-entry']).toBeUndefined());
    expect(saved['suggester-last-item']).toBeUndefined();
  });

  it('shows the refused items and spec §8’s failure message; the settings stay to try again', async () => {
    mockSaved(3);
    mockApi(CREATE, ok({ id: 'c1' }));
    mockApi(
      TASK,
      ok({
        item: makeTask({
          id: 'c1',
          kind: 'create-campaigns',
          finish: true,
          error: null,
          details: creationDetails({ groupsCreated: 1, groupsTotal: 3, campaignsCreated: 1, campaignsTotal: 4, finish: true, errorsMethod: [{ method: 'createAdGroup', name: 'Exact', message: '' }], rejected: [{ campaign: 'US Brand', adGroup: 'Exact', text: 'snap', matchType: 'EXACT', message: 'Keyword is not allowed' }] }),
        }),
      }),
    );
    await toSettings();
    await fillMoney();
    await userEvent.click(await action('Create campaigns'));
    const failed = await screen.findByTestId('creation-failed');
    expect(failed).toHaveTextContent('Unfortunately, there was a problem connecting to the server');
    expect(failed).toHaveTextContent('Please try again later');
    expect(screen.getByTestId('creation-rejected')).toHaveTextContent('Keyword is not allowed');
    await userEvent.click(screen.getByRole('button', { name: 'Back to the settings' }));
    expect(screen.getByLabelText('Daily budget')).toHaveValue('50');
    expect(saved['suggester-entry']).toBeDefined();
  });

  it('shows the limit reached (spec §8) and the server’s field errors on their fields', async () => {
    mockSaved(3);
    mockApi(
      CREATE,
      fail(400, 'LIMIT_HAS_BEEN_REACHED', [], { type: 'AVAILABLECAMPAIGNS' }),
      fail(400, 'Validation failed', [{ field: 'campaigns.0.dailyBudgetAmount', message: 'Daily budget must be at least 5 USD' }]),
    );
    await toSettings();
    await fillMoney();
    await userEvent.click(await action('Create campaigns'));
    const notice = await screen.findByTestId('limit-notice');
    expect(notice).toHaveTextContent('The limit of campaigns has been exceeded');
    expect(notice).toHaveTextContent('Upgrade to full or pro, or buy another demo');
    expect(within(notice).getByRole('link', { name: 'Expand' })).toHaveAttribute('href', '/settings/subscription');

    await userEvent.click(await action('Create campaigns'));
    expect(await screen.findByText('Daily budget must be at least 5 USD')).toBeInTheDocument();
    expect(screen.queryByTestId('creation')).not.toBeInTheDocument();
  });

  it('shows the running creation again after a reload, not the form', async () => {
    mockSaved(5, undefined, { creating: 'c1' });
    mockApi(TASK, ok({ item: makeTask({ id: 'c1', kind: 'create-campaigns', message: 'Creating ad groups...', details: creationDetails({ groupsCreated: 2, groupsTotal: 3, campaignsCreated: 1, campaignsTotal: 4 }) }) }));
    renderApp(PATH, makeUser());
    expect(await screen.findByTestId('creation-groups')).toHaveTextContent('2 / 3');
    expect(screen.getByTestId('creation-phase')).toHaveTextContent('Creating ad groups...');
    expect(await action('Create campaigns')).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Back' })).not.toBeInTheDocument();
    expect(callsTo(CREATE)).toHaveLength(0);
  });
});
