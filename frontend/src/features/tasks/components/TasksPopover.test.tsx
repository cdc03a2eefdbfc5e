import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { bulkDetails, makeAccount, makeTask, makeUser } from '@/test/fixtures';
import { callsTo, mockApi, ok } from '@/test/fetch-mock';
import { renderApp } from '@/test/render';
import { taskTiming } from '../api/task';

const running = makeTask({ id: '1', message: 'Collecting results', step: 1, totalSteps: 3 });
const failed = makeTask({ id: '2', message: 'Creating campaigns', error: 'Provider unavailable' });

async function openPopover() {
  await userEvent.click(await screen.findByRole('button', { name: 'Background tasks' }));
  return screen.findByRole('dialog');
}

// The first render compiles the app; the machine may be busy.
jest.setTimeout(20_000);

// Polls every 50 ms instead of the app's 1000 ms: the tests wait on the tasks, not the clock.
beforeAll(() => {
  taskTiming.pollMs = 50;
});

describe('background tasks popover', () => {
  it('lists tasks with their progress and error', async () => {
    mockApi('GET /api/tasks', ok({ items: [running, failed] }));
    renderApp('/settings/general', makeUser());
    const popover = await openPopover();
    expect(within(popover).getByRole('progressbar', { name: 'Collecting results', hidden: true })).toHaveAttribute('aria-valuenow', '25');
    expect(within(popover).getByRole('progressbar', { name: 'Creating campaigns', hidden: true })).toHaveAttribute('aria-valuenow', '100');
    expect(within(popover).getByText('Provider unavailable')).toBeInTheDocument();
    expect(within(popover).getByText('Failed')).toBeInTheDocument();
    expect(within(popover).getByText('25%')).toBeInTheDocument();
  });

  it('polls while a task runs and stops when none does', async () => {
    const done = { ...running, step: 3, finish: true };
    mockApi('GET /api/tasks', ok({ items: [running] }), ok({ items: [done] }));
    renderApp('/settings/general', makeUser());
    const popover = await openPopover();
    await waitFor(() => expect(within(popover).getByText('Done')).toBeInTheDocument());
    const polls = callsTo('GET /api/tasks').length;
    await act(() => new Promise((resolve) => setTimeout(resolve, 5 * taskTiming.pollMs)));
    expect(callsTo('GET /api/tasks')).toHaveLength(polls);
  });

  it('shows the counts of a bulk edit and the items Apple Ads refused', async () => {
    const bulk = makeTask({
      id: '3',
      kind: 'bulk-edit',
      message: 'Bulk edit finished',
      finish: true,
      // The document's BulkEditProgress: ids are strings on the wire.
      details: bulkDetails({ applied: 2, refused: 1, skipped: 4, errors: [{ id: '77', result: 'refused', oldValue: '1.00', newValue: '0.01', message: 'Bid below the minimum' }] }),
    });
    mockApi('GET /api/tasks', ok({ items: [bulk] }));
    renderApp('/settings/general', makeUser());
    const popover = await openPopover();
    expect(within(popover).getByTestId('task-bulk-counts')).toHaveTextContent('2 applied · 4 unchanged · 1 refused');
    expect(within(popover).getByTestId('task-refused')).toHaveTextContent('77: Bid below the minimum');
  });

  it('says what each bulk edit did, where and when', async () => {
    const account = makeAccount('a1', 'Main', [{ orgId: 42, displayName: 'Cloud Apps' }]);
    const edit = (id: string, operation: string) =>
      makeTask({ id, kind: 'bulk-edit', accountId: 'a1', orgId: '42', message: 'Done: 4 applied, 0 unchanged', finish: true, createdAt: '2026-11-19T10:05:00Z', details: bulkDetails({ operation, applied: 4 }) });
    mockApi('GET /api/account/getAll', ok({ items: [account] }));
    mockApi('GET /api/tasks', ok({ items: [edit('4', 'Raise the bid of 4 keywords by 10%'), edit('5', 'Pause 4 keywords')] }));
    renderApp('/settings/general', makeUser());
    const popover = await openPopover();
    const [first, second] = within(popover).getAllByTestId('task');
    expect(first).toHaveTextContent('Raise the bid of 4 keywords by 10%');
    expect(second).toHaveTextContent('Pause 4 keywords');
    expect(within(first!).getByTestId('task-where-when')).toHaveTextContent(/^Main · Cloud Apps · 19\/11\/2026/);
  });

  it('says when there are no tasks', async () => {
    renderApp('/settings/general', makeUser());
    expect(within(await openPopover()).getByText('No background tasks')).toBeInTheDocument();
  });
});

describe('background tasks popover, keyword collection', () => {
  it('names a running keyword collection, its phase and candidates', async () => {
    const collect = makeTask({ id: 't1', kind: 'collect-keywords', message: 'Exploring your app...', step: 2, totalSteps: 7, details: { candidates: 120 } });
    mockApi('GET /api/tasks', ok({ items: [collect] }));
    renderApp('/settings/general', makeUser());
    const popover = await openPopover();
    const [item] = within(popover).getAllByTestId('task');
    expect(item).toHaveTextContent('Keyword collection');
    expect(item).toHaveTextContent('Exploring your app...');
    expect(within(item!).getByTestId('task-candidates')).toHaveTextContent('120 candidates found');
    expect(within(popover).getByRole('progressbar', { name: 'Exploring your app...', hidden: true })).toHaveAttribute('aria-valuenow', '25');
  });
});
