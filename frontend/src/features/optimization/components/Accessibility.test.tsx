/**
 * Every control of a table screen is reachable by its role and a name: the table's
 * checkboxes, sort buttons, edit buttons and switches, and the bulk bar's fields and choices.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, ok } from '@/test/fetch-mock';
import { makeAccount, makeUser, makeReport } from '@/test/fixtures';
import { renderApp } from '@/test/render';
// The screens' chunk loaded up front, as the route table would have it by the first render.
import '../screens';

const account = makeAccount('a1', 'Main', [{ orgId: 42, displayName: 'Cloud Apps' }]);
const KEYWORDS = '/optimization/a1/42/campaign-id-7/ad-group-id-9/keywords';
const ROLES = ['button', 'checkbox', 'radio', 'switch', 'textbox', 'combobox', 'link', 'spinbutton'] as const;

function unnamed(container: HTMLElement): string[] {
  return ROLES.flatMap((role) => within(container).queryAllByRole(role, { name: '' }).map((el) => `${role}: ${el.outerHTML.slice(0, 120)}`));
}

jest.setTimeout(30_000);

it('names every control of the table and the bulk bar', async () => {
  window.localStorage.clear();
  mockApi('GET /api/account/getAll', ok({ items: [account] }));
  const items = [
    { keywordId: '11', keyword: 'fitness app', keywordStatus: 'ACTIVE', campaignId: '7', adGroupId: '9', cptBid: 1.5, deleted: false, tag: [], localSpend: 1 },
    { keywordId: '12', keyword: 'workout', keywordStatus: 'PAUSED', campaignId: '7', adGroupId: '9', cptBid: 0.8, deleted: false, tag: [], localSpend: 2 },
  ];
  mockApi('POST /api/asa/reports', ok(makeReport(items, { total: 2, currency: 'USD', lastSyncedAt: '2026-11-19T10:00:00Z' })));
  mockApi('GET /api/reports/allTags', ok({ CAMPAIGNS: [], GROUPS: [], KEYWORDS: [], SEARCHTERMS: [] }));
  renderApp(KEYWORDS, makeUser());
  const table = await screen.findByTestId('report-table', {}, { timeout: 15_000 });
  await userEvent.click(await within(table).findByRole('checkbox', { name: 'Select all rows on this page' }));
  const bar = await screen.findByTestId('bulk-edit-bar');
  await userEvent.click(within(bar).getByRole('radio', { name: 'Raise by' }));
  // The amount, floor and cap fields, by their labels.
  expect(within(bar).getByRole('textbox', { name: 'Amount' })).toBeInTheDocument();
  expect(within(bar).getByRole('textbox', { name: 'Floor (optional)' })).toBeInTheDocument();
  expect(within(bar).getByRole('textbox', { name: 'Cap (optional)' })).toBeInTheDocument();
  expect(within(bar).getByRole('radiogroup', { name: 'Action' })).toBeInTheDocument();
  expect(within(bar).getByRole('radiogroup', { name: 'Change by' })).toBeInTheDocument();
  expect(unnamed(bar)).toEqual([]);
  expect(unnamed(table)).toEqual([]);
  expect(within(table).getByRole('switch', { name: 'Pause fitness app' })).toBeInTheDocument();
  expect(within(table).getByRole('button', { name: 'Edit tags: workout' })).toBeInTheDocument();
});
