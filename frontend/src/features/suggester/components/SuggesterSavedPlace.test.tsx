/**
 * The keyword suggester's saved place (docs/product.md#3-suggester-state,
 * docs/product.md#4-suggester): resumed after a reload, cleared when old or of another account.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { makeAccount, makeUser } from '@/test/fixtures';
import { callsTo, held } from '@/test/fetch-mock';
import { formatNumber } from '@/lib/format/number';
import { renderApp } from '@/test/render';
import { account, action, COLLECT, ESTIMATE, finished, ITEMS, mockCollect, mockStep1, PATH, resetSaved, running, saved, shortenWaits, startCollection } from '@/test/suggester-screen';

// The first render compiles the app; the machine may be busy.
jest.setTimeout(40_000);

beforeAll(shortenWaits);

beforeEach(resetSaved);

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
