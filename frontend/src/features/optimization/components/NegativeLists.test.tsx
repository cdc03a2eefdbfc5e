/**
 * The negative keyword lists opened from the campaigns table's toolbar (the negative-lists
 * feature's modal, offered the table's campaigns and ad groups as places): create with the
 * dry run's conflicts, check again on every change, edit keeping places elsewhere, delete.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { callsTo, mockApi, ok, type MockCall } from '@/test/fetch-mock';
import { makeAccount, makeUser, makeReport } from '@/test/fixtures';
import { renderApp } from '@/test/render';
// The screens' chunk loaded up front, as the route table would have it by the first render.
import '../screens';

const account = makeAccount('a1', 'Main', [{ orgId: 42, displayName: 'Cloud Apps' }]);
const CAMPAIGNS = '/optimization/a1/42';
const campaign = (id: string, name: string) => ({ campaignId: id, campaignName: name, servingStatus: 'RUNNING', campaignStatus: 'ENABLED', tag: [], dailyBudget: 10 });
const report = (items: unknown[]) => (makeReport(items, { currency: 'USD', lastSyncedAt: '2026-11-19T10:00:00Z' }));

jest.setTimeout(30_000);

/** When a list was made and last changed, as the server stamps it. */
const STAMPS = { createdAt: '2026-11-19T10:00:00Z', updatedAt: '2026-11-19T10:00:00Z' };
/** A campaign a list is applied to, as the server answers it (`AppliedPlace`). */
const applied = (campaignId: string, campaignName = `Campaign ${campaignId}`) => ({ campaignId, adGroupId: null, campaignName, adGroupName: null, orgId: '42', accountId: 'a1' });

describe('negative keyword lists modal', () => {
  beforeEach(() => {
    window.localStorage.clear();
    mockApi('GET /api/account/getAll', ok({ items: [account] }));
    mockApi('POST /api/asa/reports', ok(report([campaign('7', 'Brand US'), campaign('8', 'Generic US')])));
  });

  it('creates a list applied to a campaign, showing the conflicts of the dry run before saving', async () => {
    let lists: unknown[] = [];
    mockApi('GET /api/list/all/negative', () => ok({ items: lists }));
    mockApi('POST /api/list/add', (call: MockCall) => {
      const body = call.body as { dryRun: boolean; name: string };
      if (body.dryRun) return ok({ conflicts: [{ text: 'free', matchType: 'BROAD', campaignId: '7', adGroupId: null, keyword: { keywordId: '11', adGroupId: '9', text: 'free photo editor', matchType: 'EXACT' } }] });
      lists = [{ _id: 'l1', name: body.name, keywordsCount: 2, placesCount: 1, taskId: 'n1', ...STAMPS }];
      return ok({ item: { ...(lists[0] as object), keywords: [], places: [applied('7')] } });
    });
    renderApp(CAMPAIGNS, makeUser());
    await userEvent.click(await screen.findByTestId('negative-lists-button'));
    const modal = await screen.findByRole('dialog', { name: 'Negative keyword lists' });
    expect(await within(modal).findByText('No negative keyword lists yet')).toBeInTheDocument();
    await userEvent.click(within(modal).getByRole('button', { name: 'New list' }));
    await userEvent.type(within(modal).getByLabelText('Name'), 'Freebies');
    await userEvent.type(within(modal).getByTestId('negative-list-keywords'), 'Free!{enter}cheap{enter}free');
    await userEvent.click(within(modal).getByRole('radio', { name: 'Broad' }));
    await userEvent.click(within(modal).getByTestId('negative-list-campaigns'));
    await userEvent.click(await screen.findByRole('option', { name: 'Brand US' }));
    await userEvent.click(within(modal).getByRole('button', { name: 'Save' }));

    const conflicts = await within(modal).findByTestId('negative-list-conflicts');
    expect(conflicts).toHaveTextContent('free (BROAD) blocks «free photo editor» · Brand US');
    expect(callsTo('POST /api/list/add')).toHaveLength(1);
    expect(callsTo('POST /api/list/add')[0]!.body).toEqual({
      name: 'Freebies',
      keywords: [
        { text: 'free', matchType: 'BROAD' },
        { text: 'cheap', matchType: 'BROAD' },
      ],
      places: [{ campaignId: '7', adGroupId: null }],
      dryRun: true,
    });
    await userEvent.click(within(modal).getByRole('button', { name: 'Save anyway' }));
    await waitFor(() => expect(callsTo('POST /api/list/add')).toHaveLength(2));
    expect(callsTo('POST /api/list/add')[1]!.body).toMatchObject({ name: 'Freebies', dryRun: false });
    expect(await within(modal).findByText('Freebies')).toBeInTheDocument();
    // The listing has no places, only their count: the list is applied to one campaign (issue 42 item 5).
    expect(within(within(modal).getByText('Freebies').closest('tr')!).getAllByRole('cell')[2]).toHaveTextContent(/^1$/);
  });

  it('checks the conflicts again on every change: the warning and Save anyway go once the term is removed', async () => {
    mockApi('GET /api/list/all/negative', ok({ items: [] }));
    mockApi('POST /api/list/add', (call: MockCall) => {
      const body = call.body as { dryRun: boolean; keywords: { text: string }[] };
      if (!body.dryRun) return ok({ item: { ...STAMPS, _id: 'l1', name: 'Freebies', keywordsCount: 1, placesCount: 1, keywords: [], places: [applied('7')] } });
      const free = body.keywords.some((k) => k.text === 'free');
      return ok({ conflicts: free ? [{ text: 'free', matchType: 'EXACT', campaignId: '7', adGroupId: null, keyword: { keywordId: '11', adGroupId: '9', text: 'free', matchType: 'EXACT' } }] : [] });
    });
    renderApp(CAMPAIGNS, makeUser());
    await userEvent.click(await screen.findByTestId('negative-lists-button'));
    const modal = await screen.findByRole('dialog', { name: 'Negative keyword lists' });
    await userEvent.click(await within(modal).findByRole('button', { name: 'New list' }));
    await userEvent.type(within(modal).getByLabelText('Name'), 'Freebies');
    const keywords = within(modal).getByTestId('negative-list-keywords');
    await userEvent.type(keywords, 'free{enter}cheap');
    await userEvent.click(within(modal).getByTestId('negative-list-campaigns'));
    await userEvent.click(await screen.findByRole('option', { name: 'Brand US' }));
    await userEvent.click(within(modal).getByRole('button', { name: 'Save' }));
    expect(await within(modal).findByTestId('negative-list-conflicts')).toHaveTextContent('free (EXACT) blocks «free»');
    expect(within(modal).getByRole('button', { name: 'Save anyway' })).toBeInTheDocument();

    // The conflicting term removed: the warning goes, the list is checked again, and Save
    // (not Save anyway) stays.
    await userEvent.clear(keywords);
    await userEvent.type(keywords, 'cheap');
    expect(within(modal).queryByTestId('negative-list-conflicts')).not.toBeInTheDocument();
    expect(within(modal).queryByRole('button', { name: 'Save anyway' })).not.toBeInTheDocument();
    await waitFor(() => expect(callsTo('POST /api/list/add').at(-1)!.body).toMatchObject({ keywords: [{ text: 'cheap', matchType: 'EXACT' }], dryRun: true }));
    expect(within(modal).queryByTestId('negative-list-conflicts')).not.toBeInTheDocument();
    expect(within(modal).getByRole('button', { name: 'Save' })).toBeEnabled();

    // Typed back: the new check finds the conflict again without pressing Save.
    await userEvent.type(keywords, '{enter}free');
    expect(await within(modal).findByTestId('negative-list-conflicts')).toHaveTextContent('free (EXACT) blocks «free»');
    expect(callsTo('POST /api/list/add').every((c) => (c.body as { dryRun: boolean }).dryRun)).toBe(true);
  });

  it('edits a list, keeping places elsewhere, and deletes after a confirmation', async () => {
    mockApi('GET /api/list/all/negative', ok({ items: [{ ...STAMPS, _id: 'l1', name: 'Brand safety', keywordsCount: 1, placesCount: 2 }] }));
    mockApi('GET /api/list/l1', ok({ item: { ...STAMPS, _id: 'l1', name: 'Brand safety', keywordsCount: 1, placesCount: 2, keywords: [{ text: 'hack', matchType: 'EXACT' }], places: [applied('7'), applied('99')] } }));
    mockApi('PUT /api/list/l1', (call: MockCall) => ((call.body as { dryRun: boolean }).dryRun ? ok({ conflicts: [] }) : ok({ item: { ...STAMPS, _id: 'l1', name: 'Brand safety', keywordsCount: 2, placesCount: 0, keywords: [], places: [] } })));
    mockApi('DELETE /api/list/l1', ok({}));
    renderApp(CAMPAIGNS, makeUser());
    await userEvent.click(await screen.findByTestId('negative-lists-button'));
    const modal = await screen.findByRole('dialog', { name: 'Negative keyword lists' });
    await userEvent.click(await within(modal).findByRole('button', { name: 'Edit: Brand safety' }));
    const keywords = await within(modal).findByTestId('negative-list-keywords');
    expect(keywords).toHaveValue('hack');
    expect(await within(modal).findByText('1 place in other campaign groups or campaigns is kept')).toBeInTheDocument();
    await userEvent.type(keywords, '{enter}crack');
    await userEvent.click(within(modal).getByRole('button', { name: 'Save' }));
    // No conflict: saved at once.
    await waitFor(() => expect(callsTo('PUT /api/list/l1')).toHaveLength(2));
    expect(callsTo('PUT /api/list/l1')[1]!.body).toEqual({
      name: 'Brand safety',
      keywords: [
        { text: 'hack', matchType: 'EXACT' },
        { text: 'crack', matchType: 'EXACT' },
      ],
      places: [
        { campaignId: '7', adGroupId: null },
        { campaignId: '99', adGroupId: null },
      ],
      dryRun: false,
    });

    await userEvent.click(await within(modal).findByRole('button', { name: 'Delete: Brand safety' }));
    expect(callsTo('DELETE /api/list/l1')).toHaveLength(0);
    await userEvent.click(within(modal).getByRole('button', { name: 'Confirm delete: Brand safety' }));
    await waitFor(() => expect(callsTo('DELETE /api/list/l1')).toHaveLength(1));
    expect(callsTo('DELETE /api/list/l1')[0]!.url).toContain('removeNegatives=true');
  });
});
