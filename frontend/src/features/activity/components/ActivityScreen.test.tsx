import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { callsTo, fail, mockApi, ok, type MockCall } from '@/test/fetch-mock';
import { makeAccount, makeTask, makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { browserGmt } from '../api/notifications';
import { defaultRange } from '../days';

jest.setTimeout(40_000);

const account = makeAccount('a1', 'Main', [{ orgId: '42', displayName: 'Cloud Apps' }]);

function notification(id: string, overrides: Record<string, unknown> = {}) {
  return {
    _id: id,
    title: 'Bid changed',
    tag: 'manual_change',
    action: 'UPDATE',
    target: 'KEYWORD',
    source: 'user',
    sourceName: 'Ann Lee',
    email: 'ann@example.com',
    ruleId: null,
    key: `edit:${id}`,
    type: 'change',
    dateCreated: new Date().toISOString(),
    read: true,
    accountId: 'a1',
    orgId: '42',
    campaignId: '1870001',
    campaignName: 'US — Brand',
    campaignNames: ['US — Brand'],
    oldData: { entity: 'running shoes', field: 'cptBid', value: '1.20', currency: 'USD' },
    saveData: { entity: 'running shoes', field: 'cptBid', value: '1.50', currency: 'USD' },
    count: 1,
    notificationsData: [{ source: 'user', typeOfChange: 'cptBid', action: 'UPDATE', count: 1, oldData: '1.20', saveData: '1.50', currency: 'USD', entities: [] }],
    undo: { possible: true, undoneBy: null, undoOf: null },
    ...overrides,
  };
}

const COUNTS = { all: 3, manual_change: 2, quick_start: 0, auto_rules: 1, goal_optimization: 0, team: 0 };

function page(items: unknown[], extra: Record<string, unknown> = {}) {
  return ok({ items, total: items.length, unread: 1, counts: COUNTS, ...extra });
}

const isBadge = (call: MockCall) => new URL(call.url, 'http://x').searchParams.get('new') === 'true';
const params = (call: MockCall) => new URL(call.url, 'http://x').searchParams;
const listCalls = () => callsTo('GET /api/accountsActions/all').filter((c) => !isBadge(c));

/** Answers the list with `list` (per call) and the sidebar's count with `unread`. */
function mockList(list: (call: MockCall) => ReturnType<typeof ok> | Promise<ReturnType<typeof ok>>, unread = 1) {
  mockApi('GET /api/account/getAll', ok({ items: [account] }));
  mockApi('GET /api/accountsActions/all', (call) => (isBadge(call) ? ok({ items: [], total: unread, unread, counts: COUNTS }) : list(call)));
}

const DAY = 86_400_000;

describe('activity entries in words (issue 42 item 15)', () => {
  it("names a list's terms, omits the campaign line of a team entry, and says who pressed Run now", async () => {
    mockList(() =>
      page([
        notification('l1', {
          title: 'Negative keyword list created',
          tag: 'manual_change',
          action: 'CREATE',
          target: 'NEGATIVE_KEYWORD',
          oldData: null,
          saveData: null,
          count: 7,
          notificationsData: [{ source: 'user', typeOfChange: 'created', action: 'CREATE', count: 7, oldData: null, saveData: 'EXACT', currency: null, entities: ['free', 'cheap', 'crack', 'hack', 'torrent'] }],
        }),
        notification('t1', {
          title: 'Bob Writer joined the team as Editor',
          tag: 'team',
          action: 'UPDATE',
          target: 'TEAM',
          accountId: null,
          orgId: null,
          campaignId: null,
          campaignName: null,
          campaignNames: [],
          oldData: null,
          saveData: null,
          count: 0,
          notificationsData: [],
          undo: { possible: false, undoneBy: null, undoOf: null },
        }),
        notification('r1', { title: 'Keywords paused', tag: 'auto_rules', source: 'rule', sourceName: 'Pause spenders', email: 'ann@example.com' }),
      ]),
    );
    renderApp('/activity-log', makeUser());
    const list = await screen.findByTestId('notification-l1');
    const change = within(list).getByTestId('notification-change');
    expect(change).toHaveTextContent('Created · 7 changes: free, cheap, crack, hack, torrent and 2 more');
    expect(change).not.toHaveTextContent('→');
    const team = screen.getByTestId('notification-t1');
    expect(within(team).queryByTestId('notification-campaign')).not.toBeInTheDocument();
    expect(team).not.toHaveTextContent('Campaign:');
    expect(within(screen.getByTestId('notification-r1')).getByTestId('notification-who')).toHaveTextContent('Pause spenders· Run now by ann@example.com');
  });
});

describe('the activity log', () => {
  it('asks the last 30 days in the browser offset and shows the notifications grouped by day', async () => {
    const now = Date.now();
    mockList(() =>
      page([
        notification('n1', { read: false, dateCreated: new Date(now).toISOString() }),
        notification('n2', {
          title: 'Keywords paused',
          tag: 'auto_rules',
          source: 'rule',
          sourceName: 'Pause spenders',
          email: null,
          dateCreated: new Date(now - 3 * DAY).toISOString(),
          campaignName: '3 campaigns',
          campaignNames: ['US — Brand', 'UK — Brand', 'DE — Generic'],
          oldData: null,
          saveData: null,
          count: 2000,
          notificationsData: [{ source: 'rule', typeOfChange: 'status', action: 'UPDATE', count: 2000, oldData: 'ENABLED', saveData: 'PAUSED', currency: null, entities: [] }],
        }),
        notification('n3', { source: 'apple_ads', sourceName: 'Apple Ads', email: 'someone@apple.test', dateCreated: new Date(now - 45 * DAY).toISOString() }),
      ]),
    );
    renderApp('/activity-log', makeUser());
    const first = await screen.findByTestId('notification-n1');
    const range = defaultRange(new Date(), browserGmt());
    const query = params(listCalls()[0]!);
    expect(Object.fromEntries(query)).toEqual({ GMT: String(browserGmt()), limit: '50', skip: '0', fromDate: range.start, toDate: range.end });

    const today = screen.getByRole('region', { name: 'Today' });
    expect(within(today).getByTestId('notification-n1')).toBe(first);
    expect(within(screen.getByRole('region', { name: 'Last 30 days' })).getByTestId('notification-n2')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Older' })).getByTestId('notification-n3')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Yesterday' })).not.toBeInTheDocument();

    // Who, the campaign, old → new with the currency; unread marked.
    expect(within(first).getByTestId('notification-who')).toHaveTextContent('Ann Leeann@example.com');
    expect(within(first).getByTestId('notification-campaign')).toHaveTextContent('US — Brand');
    expect(within(first).getByTestId('notification-change')).toHaveTextContent('running shoes · Bid: $1.20 → $1.50');
    expect(first).toHaveAttribute('data-unread', 'true');
    const rule = screen.getByTestId('notification-n2');
    expect(rule).not.toHaveAttribute('data-unread');
    expect(within(rule).getByTestId('notification-who')).toHaveTextContent('Pause spenders');
    expect(within(rule).getByTestId('notification-campaign')).toHaveTextContent('3 campaigns');
    expect(within(rule).getByTestId('notification-change')).toHaveTextContent('Status · 2 000 changes: Enabled → Paused');
    expect(within(screen.getByTestId('notification-n3')).getByTestId('notification-who')).toHaveTextContent('Apple Adssomeone@apple.test');

    // The left filter list with its counts.
    const filter = screen.getByRole('navigation', { name: 'Type of change' });
    expect(within(filter).getAllByRole('button').map((b) => b.textContent)).toEqual([
      'All changes3',
      'Automated rule1',
      'Automated Optimization0',
      'Quick Start0',
      'Manual change2',
      'Team0',
    ]);
  });

  it('shows skeletons while loading, then the empty text', async () => {
    let answer: (value: ReturnType<typeof ok>) => void = () => {};
    mockList(() => new Promise((resolve) => (answer = resolve)));
    renderApp('/activity-log', makeUser());
    expect(await screen.findByTestId('activity-skeletons')).toBeInTheDocument();
    act(() => answer(page([], { unread: 0 })));
    expect(await screen.findByText('You have no notifications for the last 30 days')).toBeInTheDocument();
    expect(screen.queryByTestId('activity-skeletons')).not.toBeInTheDocument();
  });

  it('toasts the failure with the server message', async () => {
    mockList(() => fail(500, 'Database is down'));
    renderApp('/activity-log', makeUser());
    expect(await screen.findByText('An error occurred while fetching notifications. Database is down', { selector: '.mantine-Notification-description' })).toBeInTheDocument();
  });

  it('sends the search trimmed once typing rests, and marks it in the results', async () => {
    mockList((call) => (params(call).get('campaignName') === 'brand' ? page([notification('n1', { campaignName: 'US — Brand' })]) : page([notification('n1'), notification('n2', { campaignName: 'DE — Generic', campaignNames: ['DE — Generic'] })])));
    renderApp('/activity-log', makeUser());
    await screen.findByTestId('notification-n2');
    await userEvent.type(screen.getByRole('textbox', { name: 'Search by campaign name' }), '  brand ');
    const campaign = await waitFor(() => {
      expect(screen.queryByTestId('notification-n2')).not.toBeInTheDocument();
      return within(screen.getByTestId('notification-n1')).getByTestId('notification-campaign');
    });
    const sent = listCalls().map((c) => params(c).get('campaignName'));
    expect(sent[0]).toBeNull();
    expect(sent.filter((s) => s !== null)).toEqual(['brand']);
    expect([...campaign.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['Brand']);

    // Only spaces: nothing is sent.
    await userEvent.clear(screen.getByRole('textbox', { name: 'Search by campaign name' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Search by campaign name' }), '   ');
    await screen.findByTestId('notification-n2');
    expect(params(listCalls().at(-1)!).get('campaignName')).toBeNull();
  });

  it('says that nothing matches the search, not that there are no notifications', async () => {
    mockList((call) => (params(call).get('campaignName') === 'zebra' ? page([], { unread: 0 }) : page([notification('n1')])));
    renderApp('/activity-log', makeUser());
    await screen.findByTestId('notification-n1');
    await userEvent.type(screen.getByRole('textbox', { name: 'Search by campaign name' }), 'zebra');
    const empty = await screen.findByTestId('activity-empty');
    expect(empty).toHaveTextContent('No notifications match “zebra”');
    expect(empty).not.toHaveTextContent('You have no notifications for the last 30 days');
  });

  it('asks by type, and asks nothing while a date is missing', async () => {
    mockList(() => page([notification('n1')]));
    renderApp('/activity-log', makeUser());
    await screen.findByTestId('notification-n1');
    await userEvent.click(screen.getByRole('button', { name: /^Manual change/ }));
    await waitFor(() => expect(params(listCalls().at(-1)!).get('tag')).toBe('manual_change'));

    const before = listCalls().length;
    await userEvent.click(screen.getByRole('button', { name: 'Date range' }));
    await userEvent.clear(screen.getByRole('textbox', { name: 'Start date' }));
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText(/Choose a start and an end date/)).toBeInTheDocument();
    expect(listCalls()).toHaveLength(before);

    // Typed dates (reversed) are swapped and asked.
    await userEvent.click(screen.getByRole('button', { name: 'Date range' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Start date' }), '20/11/2026');
    await userEvent.clear(screen.getByRole('textbox', { name: 'End date' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'End date' }), '01/11/2026');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(listCalls().length).toBe(before + 1));
    expect(params(listCalls().at(-1)!).get('fromDate')).toBe('2026-11-01');
    expect(params(listCalls().at(-1)!).get('toDate')).toBe('2026-11-20');
  });

  it('marks a clicked unread notification read, and all of them with Mark all as read', async () => {
    const read = new Set<string>(['n2']);
    mockList(() => page(['n1', 'n2'].map((id) => notification(id, { read: read.has(id) }))), 2);
    mockApi('PATCH /api/accountsActions/notifications/read', (call) => {
      for (const id of (call.body as { ids: string[] }).ids) read.add(id);
      return ok({ updated: 1 });
    });
    mockApi('PATCH /api/accountsActions/notifications/read/all', ok({ updated: 1 }));
    renderApp('/activity-log', makeUser());
    const item = await screen.findByTestId('notification-n1');
    expect(item).toHaveAttribute('data-unread', 'true');
    expect(await screen.findByTestId('unread-badge')).toHaveTextContent('2');
    const badgeCalls = () => callsTo('GET /api/accountsActions/all').filter(isBadge).length;
    const asked = badgeCalls();

    // A read one clicked asks nothing.
    await userEvent.click(within(screen.getByTestId('notification-n2')).getByText('Bid changed'));
    expect(callsTo('PATCH /api/accountsActions/notifications/read')).toHaveLength(0);

    await userEvent.click(within(item).getByText('Bid changed'));
    await waitFor(() => expect(callsTo('PATCH /api/accountsActions/notifications/read')).toHaveLength(1));
    expect(callsTo('PATCH /api/accountsActions/notifications/read')[0]!.body).toEqual({ ids: ['n1'] });
    await waitFor(() => expect(screen.getByTestId('notification-n1')).not.toHaveAttribute('data-unread'));
    // The unread count is asked again.
    await waitFor(() => expect(badgeCalls()).toBeGreaterThan(asked));
    await userEvent.click(within(screen.getByTestId('notification-n1')).getByText('Bid changed'));
    expect(callsTo('PATCH /api/accountsActions/notifications/read')).toHaveLength(1);

    await userEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(callsTo('PATCH /api/accountsActions/notifications/read/all')).toHaveLength(1));
  });

  it('loads the next page once scrolled within 200 px of the bottom, 100 ms after scrolling stops', async () => {
    const items = Array.from({ length: 120 }, (_, i) => notification(`n${i}`));
    mockList((call) => {
      const skip = Number(params(call).get('skip'));
      return ok({ items: items.slice(skip, skip + 50), total: 120, unread: 0, counts: COUNTS });
    });
    renderApp('/activity-log', makeUser());
    await screen.findByTestId('notification-n49');
    expect(screen.queryByTestId('notification-n50')).not.toBeInTheDocument();
    const props = [[document.documentElement, 'scrollHeight'], [window, 'innerHeight'], [window, 'scrollY']] as const;
    const saved = props.map(([target, key]) => Object.getOwnPropertyDescriptor(target, key));
    try {
      Object.defineProperty(document.documentElement, 'scrollHeight', { configurable: true, value: 5000 });
      Object.defineProperty(window, 'innerHeight', { configurable: true, value: 800 });

      // 201 px from the bottom: nothing.
      Object.defineProperty(window, 'scrollY', { configurable: true, value: 3999 });
      fireEvent.scroll(window);
      await act(() => new Promise((resolve) => setTimeout(resolve, 250)));
      expect(listCalls()).toHaveLength(1);

      // 200 px from the bottom: the next 50.
      Object.defineProperty(window, 'scrollY', { configurable: true, value: 4000 });
      fireEvent.scroll(window);
      expect(await screen.findByTestId('notification-n50')).toBeInTheDocument();
      expect(params(listCalls()[1]!).get('skip')).toBe('50');
      expect(params(listCalls()[1]!).get('limit')).toBe('50');
    } finally {
      props.forEach(([target, key], i) => {
        const descriptor = saved[i];
        if (descriptor) Object.defineProperty(target, key, descriptor);
        else Reflect.deleteProperty(target, key);
      });
    }
  });

  it('scrolls to the linked notification, highlights it for 600 ms, then drops the query', async () => {
    jest.useFakeTimers();
    try {
      const scrolled: string[] = [];
      const spy = jest.spyOn(window.HTMLElement.prototype, 'scrollIntoView').mockImplementation(function (this: HTMLElement) {
        scrolled.push(this.id);
      });
      mockList(() => page([notification('n1'), notification('n2')]));
      const { location } = renderApp('/activity-log?notificationId=n2&accountId=a1', makeUser());
      const item = await screen.findByTestId('notification-n2');
      expect(scrolled).toEqual(['notification-n2']);
      expect(item).toHaveAttribute('data-highlighted', 'true');
      expect(screen.getByTestId('notification-n1')).not.toHaveAttribute('data-highlighted');
      act(() => jest.advanceTimersByTime(599));
      expect(item).toHaveAttribute('data-highlighted', 'true');
      expect(location()).toBe('/activity-log?notificationId=n2&accountId=a1');
      act(() => jest.advanceTimersByTime(1));
      expect(location()).toBe('/activity-log');
      expect(screen.getByTestId('notification-n2')).not.toHaveAttribute('data-highlighted');
      spy.mockRestore();
    } finally {
      jest.useRealTimers();
    }
  });

  it('reads on page by page until the linked notification is found', async () => {
    const items = Array.from({ length: 120 }, (_, i) => notification(`n${i}`));
    mockList((call) => {
      const skip = Number(params(call).get('skip'));
      return ok({ items: items.slice(skip, skip + 50), total: 120, unread: 0, counts: COUNTS });
    });
    const { location } = renderApp('/activity-log?notificationId=n110', makeUser());
    expect(await screen.findByTestId('notification-n110')).toHaveAttribute('data-highlighted', 'true');
    expect(listCalls().map((c) => params(c).get('skip'))).toEqual(['0', '50', '100']);
    await waitFor(() => expect(location()).toBe('/activity-log'));
  });

  it('drops the query when the linked notification is not in the list', async () => {
    mockList(() => page([notification('n1')]));
    const { location } = renderApp('/activity-log?notificationId=gone', makeUser());
    await screen.findByTestId('notification-n1');
    await waitFor(() => expect(location()).toBe('/activity-log'));
    expect(screen.getByTestId('notification-n1')).not.toHaveAttribute('data-highlighted');
  });

  it('undoes a change after a confirmation, follows its task, reads the log again and lists what it left (editors only)', async () => {
    mockList(() => page([notification('n1', { count: 2, oldData: null, saveData: null })]));
    mockApi('POST /api/accountsActions/n1/undo', { status: 202, body: { status: 202, message: 'Accepted', result: { taskId: 't9' } } });
    mockApi(
      'GET /api/tasks/t9',
      ok({ item: makeTask({ id: 't9', kind: 'undo-notification', finish: false, message: 'Undoing', percent: 10 }) }),
      ok({
        item: makeTask({
          id: 't9',
          kind: 'undo-notification',
          finish: true,
          message: 'Undone: 1 restored, 1 skipped',
          percent: 100,
          details: {
            undoId: 'u1',
            restored: 1,
            skipped: 1,
            refused: 0,
            left: [{ level: 'KEYWORD', entityId: '9870002', entityName: 'trail shoes', field: 'cptBid', message: 'Changed since' }],
          },
        }),
      }),
    );
    renderApp('/activity-log', makeUser({ permission: 'writer' }));
    const item = await screen.findByTestId('notification-n1');
    await userEvent.click(within(item).getByRole('button', { name: 'Undo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Undo this change' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Undo change' }));
    expect(await screen.findByText('Undo finished. Undone: 1 restored, 1 skipped')).toBeInTheDocument();
    expect(callsTo('POST /api/accountsActions/n1/undo')).toHaveLength(1);
    expect(callsTo('GET /api/tasks/t9').length).toBeGreaterThanOrEqual(2);
    await waitFor(() => expect(listCalls().length).toBeGreaterThan(1));
    const left = await screen.findByRole('table', { name: 'Left as they are' });
    expect(within(left).getAllByRole('row').map((r) => r.textContent)).toEqual(['EntityLevelFieldWhy', 'trail shoesKeywordBidChanged since']);
  });

  it('tells an undo the server refuses', async () => {
    mockList(() => page([notification('n1')]));
    mockApi('POST /api/accountsActions/n1/undo', fail(409, 'ALREADY_UNDONE'));
    renderApp('/activity-log', makeUser({ permission: 'admin' }));
    await userEvent.click(within(await screen.findByTestId('notification-n1')).getByRole('button', { name: 'Undo' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Undo this change' })).getByRole('button', { name: 'Undo change' }));
    expect(await screen.findByText('ALREADY_UNDONE')).toBeInTheDocument();
    expect(callsTo('GET /api/tasks/t9')).toHaveLength(0);
  });

  it('offers no undo to readers, nor for what cannot be set back', async () => {
    mockList(() => page([notification('n1'), notification('n2', { undo: { possible: false, undoneBy: null, undoOf: null } })]));
    renderApp('/activity-log', makeUser({ permission: 'reader' }));
    await screen.findByTestId('notification-n1');
    expect(screen.queryByRole('button', { name: 'Undo' })).not.toBeInTheDocument();
  });

  it('opens the changes entity by entity and exports all of them as CSV', async () => {
    const change = (i: number) => ({
      level: 'KEYWORD',
      entityId: `98700${String(i).padStart(2, '0')}`,
      entityName: `keyword ${i}`,
      campaignId: '1870001',
      campaignName: 'US — Brand',
      adGroupId: '2870001',
      field: 'status',
      oldValue: 'ENABLED',
      newValue: 'PAUSED',
      currency: null,
      dateCreated: '2026-11-27T10:15:02Z',
    });
    const all = Array.from({ length: 60 }, (_, i) => change(i));
    mockList(() => page([notification('n1', { count: 60, oldData: null, saveData: null })]));
    mockApi('GET /api/accountsActions/n1/changes', (call) => {
      const limit = Number(params(call).get('limit'));
      const skip = Number(params(call).get('skip'));
      return ok({ items: all.slice(skip, skip + limit), total: all.length });
    });
    let blob: Blob | null = null;
    let fileName = '';
    Object.assign(URL, { createObjectURL: (b: Blob) => ((blob = b), 'blob:x'), revokeObjectURL: () => {} });
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      fileName = this.download;
    });
    renderApp('/activity-log', makeUser({ permission: 'reader' }));
    const item = await screen.findByTestId('notification-n1');
    await userEvent.click(within(item).getByRole('button', { name: 'Details' }));
    const table = await screen.findByRole('table', { name: 'Changes entity by entity' });
    expect(await within(table).findByText('keyword 0')).toBeInTheDocument();
    expect(within(table).getAllByRole('row')).toHaveLength(51);
    expect(within(table).getAllByText('Enabled → Paused')).toHaveLength(50);

    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('60 changes exported')).toBeInTheDocument();
    expect(fileName).toBe('searchdeck-activity-n1.csv');
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as string);
      reader.readAsText(blob as unknown as Blob);
    });
    const lines = text.replace(/^\ufeff/, '').split('\r\n');
    expect(lines[0]).toBe('Date,Level,Entity,Entity ID,Campaign,Campaign ID,Ad group ID,Field,Old value,New value,Currency');
    expect(lines).toHaveLength(62);
    expect(lines[60]).toBe('2026-11-27T10:15:02Z,KEYWORD,keyword 59,="9870059",US — Brand,="1870001",="2870001",status,ENABLED,PAUSED,');
    const exportCall = callsTo('GET /api/accountsActions/n1/changes').at(-1)!;
    expect(params(exportCall).get('limit')).toBe('1000');
    click.mockRestore();
  });
});

describe('the sidebar', () => {
  it('shows the unread count on Activity Log, asked without dates', async () => {
    mockList(() => page([]), 7);
    renderApp('/settings/general', makeUser());
    const entry = await screen.findByRole('link', { name: 'Activity Log' });
    expect(await within(entry).findByTestId('unread-badge')).toHaveTextContent('7');
    const call = callsTo('GET /api/accountsActions/all').find(isBadge)!;
    expect(Object.fromEntries(params(call))).toEqual({ limit: '1', new: 'true' });
  });

  it('asks the unread count again every minute', async () => {
    jest.useFakeTimers();
    try {
      mockList(() => page([]), 3);
      renderApp('/settings/general', makeUser());
      await screen.findByTestId('unread-badge');
      const asked = () => callsTo('GET /api/accountsActions/all').filter(isBadge).length;
      expect(asked()).toBe(1);
      await act(() => jest.advanceTimersByTimeAsync(59_000));
      expect(asked()).toBe(1);
      await act(() => jest.advanceTimersByTimeAsync(1_000));
      expect(asked()).toBe(2);
    } finally {
      jest.useRealTimers();
    }
  });
});
