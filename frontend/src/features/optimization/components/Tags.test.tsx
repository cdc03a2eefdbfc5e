import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { callsTo, mockApi, never, ok } from '@/test/fetch-mock';
import { makeAccount, makeUser, makeReport } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { carriedTags } from './TagPicker';
// The screens' chunk loaded up front, as the route table would have it by the first render.
import '../screens';

const account = makeAccount('a1', 'Main', [{ orgId: 42, displayName: 'Cloud Apps' }]);
const KEYWORDS = '/optimization/a1/42/campaign-id-7/ad-group-id-9/keywords';
const CAMPAIGNS = '/optimization/a1/42';

const brand = { _id: 'tg1', name: 'Brand', color: 'Green', type: 'KEYWORDS', items: 1, createdAt: '2026-11-19T10:00:00Z' };

function keyword(id: string, name: string, tag: unknown[] = []) {
  return { keywordId: id, keyword: name, keywordStatus: 'ACTIVE', campaignId: '7', adGroupId: '9', cptBid: 1, deleted: false, tag, localSpend: 1 };
}

function report(items: unknown[]) {
  return makeReport(items, { currency: 'USD', lastSyncedAt: '2026-11-19T10:00:00Z' });
}

const tagsBy = (keywords: unknown[], campaigns: unknown[] = []) => ok({ CAMPAIGNS: campaigns, GROUPS: [], KEYWORDS: keywords, SEARCHTERMS: [] });

jest.setTimeout(20_000);

describe('tags from the table', () => {
  it('counts the tags the chosen rows carry', () => {
    const counts = carriedTags([{ tag: [{ id: 'a' }, { id: 'b' }] }, { tag: [{ id: 'a' }] }, null, { tag: null }]);
    expect([...counts]).toEqual([
      ['a', 2],
      ['b', 1],
    ]);
  });

  beforeEach(() => {
    window.localStorage.clear();
    mockApi('GET /api/account/getAll', ok({ items: [account] }));
  });

  it("creates a tag on the selected rows from the bulk bar's Tag button, then lists it", async () => {
    mockApi('POST /api/asa/reports', ok(report([keyword('11', 'fitness app'), keyword('12', 'workout')])));
    mockApi('GET /api/reports/allTags', () => (callsTo('PUT /api/reports/tag/many').length > 0 ? tagsBy([brand]) : tagsBy([])));
    mockApi('PUT /api/reports/tag/many', ok({ items: [brand] }));
    renderApp(KEYWORDS, makeUser());
    // The first render also compiles the screens' chunk.
    const table = await screen.findByTestId('report-table', {}, { timeout: 15_000 });
    await userEvent.click(await within(table).findByRole('checkbox', { name: 'Select all rows on this page' }));
    const bar = await screen.findByTestId('bulk-edit-bar');
    await userEvent.click(within(bar).getByRole('button', { name: 'Tag' }));
    const picker = await screen.findByTestId('tag-picker');
    await userEvent.type(within(picker).getByRole('textbox', { name: 'Find or create a tag' }), 'Brand');
    await userEvent.click(within(picker).getByRole('radio', { name: 'Green' }));
    await userEvent.click(within(picker).getByRole('button', { name: 'Create tag “Brand”' }));
    await waitFor(() => expect(callsTo('PUT /api/reports/tag/many')).toHaveLength(1));
    expect(callsTo('PUT /api/reports/tag/many')[0]!.body).toEqual({
      tags: [
        {
          name: 'Brand',
          color: 'Green',
          type: 'KEYWORDS',
          items: [
            { accountId: 'a1', orgId: '42', id: '11' },
            { accountId: 'a1', orgId: '42', id: '12' },
          ],
        },
      ],
    });
    // The new tag is listed, ticked for both rows, and the filter builder offers it.
    expect(await within(picker).findByRole('checkbox', { name: 'Brand' })).toBeInTheDocument();
    // The search field takes the focus back from the vanished Create button; Escape closes.
    await waitFor(() => expect(within(picker).getByRole('textbox', { name: 'Find or create a tag' })).toHaveFocus());
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('tag-picker')).toBeNull());
  });

  it("closes a tag cell's picker on Escape wherever the focus went, and keeps its boxes focusable while a change is sent", async () => {
    mockApi('POST /api/asa/reports', ok(report([keyword('11', 'fitness app')])));
    mockApi('GET /api/reports/allTags', tagsBy([brand]));
    mockApi('PATCH /api/reports/tag/many/tg1', never);
    renderApp(KEYWORDS, makeUser());
    const table = await screen.findByTestId('report-table');
    await userEvent.click(await within(table).findByRole('button', { name: 'Edit tags: fitness app' }));
    const picker = await screen.findByTestId('tag-picker');
    const box = await within(picker).findByRole('checkbox', { name: 'Brand' });
    await userEvent.click(box);
    await waitFor(() => expect(callsTo('PATCH /api/reports/tag/many/tg1')).toHaveLength(1));
    // A disabled box would throw the focus to the page in a browser.
    expect(box).toBeEnabled();
    expect(box).toHaveFocus();
    // A second tick while the first is sent sends nothing.
    await userEvent.click(box);
    expect(callsTo('PATCH /api/reports/tag/many/tg1')).toHaveLength(1);
    // The page holds the focus, as after a re-render under it: Escape still closes the picker.
    act(() => box.blur());
    expect(document.body).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('tag-picker')).toBeNull());
  });

  it("adds and removes a row's tag from its tag cell", async () => {
    mockApi('POST /api/asa/reports', ok(report([keyword('11', 'fitness app'), keyword('12', 'workout', [{ id: 'tg1', name: 'Brand', color: 'Green' }])])));
    mockApi('GET /api/reports/allTags', tagsBy([brand]));
    mockApi('PATCH /api/reports/tag/many/tg1', ok({ item: brand }));
    mockApi('DELETE /api/reports/tag/many/tg1', ok({ item: brand }));
    renderApp(KEYWORDS, makeUser());
    const table = await screen.findByTestId('report-table');
    await userEvent.click(await within(table).findByRole('button', { name: 'Edit tags: fitness app' }));
    let picker = await screen.findByTestId('tag-picker');
    const box = await within(picker).findByRole('checkbox', { name: 'Brand' });
    expect(box).not.toBeChecked();
    await userEvent.click(box);
    await waitFor(() => expect(callsTo('PATCH /api/reports/tag/many/tg1')).toHaveLength(1));
    expect(callsTo('PATCH /api/reports/tag/many/tg1')[0]!.body).toEqual({ items: [{ accountId: 'a1', orgId: '42', id: '11' }] });

    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('tag-picker')).toBeNull());
    await userEvent.click(within(table).getByRole('button', { name: 'Edit tags: workout' }));
    picker = await screen.findByTestId('tag-picker');
    const carried = await within(picker).findByRole('checkbox', { name: 'Brand' });
    expect(carried).toBeChecked();
    await userEvent.click(carried);
    await waitFor(() => expect(callsTo('DELETE /api/reports/tag/many/tg1')).toHaveLength(1));
    expect(callsTo('DELETE /api/reports/tag/many/tg1')[0]!.body).toEqual({ items: [{ accountId: 'a1', orgId: '42', id: '12' }] });
  });

  it('renames, recolours and deletes a tag', async () => {
    mockApi('POST /api/asa/reports', ok(report([keyword('11', 'fitness app')])));
    mockApi('GET /api/reports/allTags', tagsBy([brand]));
    mockApi('PATCH /api/reports/tag/one/tg1', ok({ item: { ...brand, name: 'Core', color: 'Red' } }));
    mockApi('DELETE /api/reports/tag/one/tg1', ok({}));
    renderApp(KEYWORDS, makeUser());
    const table = await screen.findByTestId('report-table');
    await userEvent.click(await within(table).findByRole('button', { name: 'Edit tags: fitness app' }));
    const picker = await screen.findByTestId('tag-picker');
    await userEvent.click(await within(picker).findByRole('button', { name: 'Edit tag: Brand' }));
    const editor = await screen.findByTestId('tag-editor');
    const name = within(editor).getByRole('textbox', { name: 'Name' });
    await userEvent.clear(name);
    await userEvent.type(name, 'Core');
    await userEvent.click(within(editor).getByRole('radio', { name: 'Red' }));
    await userEvent.click(within(editor).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo('PATCH /api/reports/tag/one/tg1')).toHaveLength(1));
    expect(callsTo('PATCH /api/reports/tag/one/tg1')[0]!.body).toEqual({ name: 'Core', color: 'Red' });

    await userEvent.click(await within(await screen.findByTestId('tag-picker')).findByRole('button', { name: 'Edit tag: Brand' }));
    const again = await screen.findByTestId('tag-editor');
    await userEvent.click(within(again).getByRole('button', { name: 'Delete tag' }));
    await userEvent.click(within(again).getAllByRole('button', { name: 'Delete tag' }).at(-1)!);
    await waitFor(() => expect(callsTo('DELETE /api/reports/tag/one/tg1')).toHaveLength(1));
  });

  it("opens the Tag button's picker at campaign level too, anchored to the button", async () => {
    mockApi('POST /api/asa/reports', ok(report([{ campaignId: '7', campaignName: 'Brand US', servingStatus: 'RUNNING', campaignStatus: 'ENABLED', tag: [], dailyBudget: 10 }])));
    mockApi('GET /api/reports/allTags', tagsBy([], [{ ...brand, type: 'CAMPAIGNS' }]));
    renderApp(CAMPAIGNS, makeUser());
    const table = await screen.findByTestId('report-table');
    await userEvent.click(await within(table).findByRole('checkbox', { name: 'Select all rows on this page' }));
    const bar = await screen.findByTestId('bulk-edit-bar');
    const button = within(bar).getByRole('button', { name: 'Tag' });
    await userEvent.click(button);
    const picker = await screen.findByTestId('tag-picker');
    expect(await within(picker).findByRole('checkbox', { name: 'Brand' })).toBeInTheDocument();
    // The dropdown is the button's popover: the button controls it.
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(button.getAttribute('aria-controls')).toBe(picker.closest('[role="dialog"]')?.id);
  });
});
