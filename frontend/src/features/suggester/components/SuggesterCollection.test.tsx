/** The keyword suggester's collection (steps 1 to 2): its phases and progress, the list and the selection, failures, Stop and Back. */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { callsTo, fail, held, mockApi, ok } from '@/test/fetch-mock';
import { formatNumber } from '@/lib/format/number';
import { action, COLLECT, finished, ITEMS, mockCollect, mockStep1, pollsOf, resetSaved, running, saved, shortenWaits, startCollection, STOP, task } from '@/test/suggester-screen';
import { timing } from '../wizard';

// The first render compiles the app; the machine may be busy.
jest.setTimeout(40_000);

beforeAll(shortenWaits);

beforeEach(resetSaved);

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
