/** The keyword suggester's estimated impressions (step 2): asked once per result, filled into the list and the selection. */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { callsTo, fail, ok, type MockCall } from '@/test/fetch-mock';
import { formatNumber } from '@/lib/format/number';
import { action, ESTIMATE, estimatesFrom, finished, keyword, mockCollect, mockStep1, resetSaved, saved, shortenWaits, startCollection, task } from '@/test/suggester-screen';

// The first render compiles the app; the machine may be busy.
jest.setTimeout(40_000);

beforeAll(shortenWaits);

beforeEach(resetSaved);

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
    // One name the server answers normalised (docs/product.md#5-keyword-lists): matched by its
    // normalised form.
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
