import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { callsTo, mockApi, ok } from '@/test/fetch-mock';
import { makeAccount, makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const account = makeAccount('a1', 'Main', [{ orgId: '42', displayName: 'Cloud Apps' }]);

const report = {
  items: [
    { campaignId: '7', campaignName: 'Brand US', servingStatus: 'RUNNING', deleted: false, tag: [], localSpend: 12.5, taps: 3, avgCPM: 1 },
    { campaignId: '8', campaignName: 'Generic', servingStatus: 'PAUSED', deleted: false, tag: [], localSpend: 0, taps: 0, avgCPM: 0 },
  ],
  total: 2,
  totals: { localSpend: 12.5, taps: 3 },
  currency: 'USD',
  lastSyncedAt: '2026-11-19T10:00:00Z',
  locked: [],
  lockedGroups: [],
  syncing: false,
  hidden: [],
  page: 1,
  pageSize: 50,
};

const preset = (id: string, name: string, fields: string[], isDefault = false) => ({ _id: id, name, type: 'CAMPAIGNS', fields, isDefault });
const defaultPreset = preset('default-CAMPAIGNS', 'Default', ['campaignName', 'servingStatus', 'localSpend', 'taps', 'avgCPM'], true);

function setup({ presets = [defaultPreset], options = {}, tags = {} }: { presets?: unknown[]; options?: Record<string, unknown>; tags?: Record<string, unknown[]> } = {}) {
  mockApi('GET /api/account/getAll', ok({ items: [account] }));
  mockApi('POST /api/asa/reports', ok(report));
  mockApi('GET /api/setFields/all/CAMPAIGNS', ok({ items: presets }));
  mockApi('GET /api/options/front', ok({ item: options, version: 1 }));
  mockApi('GET /api/reports/allTags', ok({ CAMPAIGNS: [], GROUPS: [], KEYWORDS: [], SEARCHTERMS: [], ...tags }));
  mockApi('GET /api/setFields/fields/CAMPAIGNS', ok({
    items: [
      { name: 'Attributes', fields: ['campaignName', 'servingStatus'].map((key) => ({ key, locked: false, lock: null, lockMessage: null, hiddenByDefault: false, inDefault: true })) },
      { name: 'Metrics', fields: ['localSpend', 'taps', 'avgCPM'].map((key) => ({ key, locked: false, lock: null, lockMessage: null, hiddenByDefault: false, inDefault: true })) },
    ],
  }));
}

const tableCalls = () => callsTo('POST /api/asa/reports').filter((c) => !(c.body as { graph?: boolean }).graph);

jest.setTimeout(20_000);

describe('table tools', () => {
  it('sends the filters of the address and drops one when its pill is removed', async () => {
    setup();
    const filters = encodeURIComponent(JSON.stringify([{ type: 'metrics', metric: 'ttr', condition: '>', value: 5 }, { type: 'name', condition: 'contains', value: 'brand' }]));
    const { location } = renderApp(`/optimization/a1/42?filters=${filters}`, makeUser());
    await screen.findByRole('link', { name: 'Brand US' }, { timeout: 10_000 });
    expect(tableCalls()[0]!.body).toMatchObject({
      filters: [
        { field: 'ttr', operator: 'GREATER_THAN', values: [0.05] },
        { field: 'name', operator: 'CONTAINS', values: ['brand'] },
      ],
    });
    // The chart asks for the graph of the same filters.
    const graph = callsTo('POST /api/asa/reports').find((c) => (c.body as { graph?: boolean }).graph);
    expect(graph?.body).toMatchObject({ graph: true, pageSize: 1, filters: [{ field: 'ttr' }, { field: 'name' }] });
    const pills = screen.getByTestId('filter-pills');
    expect(pills).toHaveTextContent('TTR greater than 5');
    await userEvent.click(within(pills).getByRole('button', { name: /Remove filter TTR/ }));
    await waitFor(() => expect(JSON.parse(new URLSearchParams(location().split('?')[1]).get('filters') ?? '[]')).toEqual([{ type: 'name', condition: 'contains', value: 'brand' }]));
  });

  it('shows the columns of the selected preset, falling back to Default', async () => {
    setup({ presets: [defaultPreset, preset('p1', 'Lean', ['localSpend', 'campaignName'])], options: { 'optimization-column-presets': { CAMPAIGNS: 'p1' } } });
    renderApp('/optimization/a1/42', makeUser());
    const table = await screen.findByTestId('report-table', {}, { timeout: 10_000 });
    await waitFor(() => expect(within(table).queryByRole('button', { name: 'Taps' })).not.toBeInTheDocument());
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers.slice(1)).toEqual(['Campaign', 'Spend']);
    expect(screen.getByRole('button', { name: /Columns · Lean/ })).toBeInTheDocument();
  });

  it('saves changed Default columns as a new preset and selects it', async () => {
    setup();
    mockApi('PUT /api/setFields/one', ok({ item: preset('p2', 'Spend only', ['campaignName', 'servingStatus', 'localSpend', 'taps']) }));
    mockApi('PUT /api/options/front', ok({ item: { 'optimization-column-presets': { CAMPAIGNS: 'p2' } }, version: 2 }));
    renderApp('/optimization/a1/42', makeUser());
    await screen.findByRole('link', { name: 'Brand US' }, { timeout: 10_000 });
    await userEvent.click(await screen.findByRole('button', { name: 'Columns' }));
    const modal = await screen.findByRole('dialog', { name: 'Edit columns' });
    expect(within(modal).getByRole('button', { name: 'Delete preset Default' })).toBeDisabled();
    await userEvent.click(await within(modal).findByRole('checkbox', { name: 'Avg CPM' }));
    expect(within(modal).getByText('The Default preset cannot be changed; save your columns as a new preset')).toBeInTheDocument();
    await userEvent.click(within(modal).getByRole('button', { name: 'Apply' }));
    expect(await within(modal).findByText('Please complete this field to continue')).toBeInTheDocument();
    await userEvent.type(within(modal).getByLabelText(/Preset name/), 'default');
    expect(within(modal).getByText('A preset with this name already exists')).toBeInTheDocument();
    await userEvent.clear(within(modal).getByLabelText(/Preset name/));
    await userEvent.type(within(modal).getByLabelText(/Preset name/), 'Spend only');
    await userEvent.click(within(modal).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(callsTo('PUT /api/setFields/one')).toHaveLength(1));
    expect(callsTo('PUT /api/setFields/one')[0]!.body).toEqual({ type: 'CAMPAIGNS', name: 'Spend only', fields: ['campaignName', 'servingStatus', 'localSpend', 'taps'] });
    await waitFor(() => expect(callsTo('PUT /api/options/front')[0]?.body).toEqual({ 'optimization-column-presets': { CAMPAIGNS: 'p2' } }));
  });

  it('disables saving an eleventh preset with the spec tooltip', async () => {
    const saved = Array.from({ length: 10 }, (_, i) => preset(`p${i}`, `P${i}`, ['campaignName']));
    setup({ presets: [defaultPreset, ...saved] });
    renderApp('/optimization/a1/42', makeUser());
    await screen.findByRole('link', { name: 'Brand US' }, { timeout: 10_000 });
    await userEvent.click(await screen.findByRole('button', { name: 'Columns' }));
    const modal = await screen.findByRole('dialog', { name: 'Edit columns' });
    expect(within(modal).getByRole('checkbox', { name: 'Save as preset' })).toBeDisabled();
    expect(within(modal).getByText('10/10 saved')).toBeInTheDocument();
  });

  it('renames a saved preset with the name rules and deletes it', async () => {
    const lean = preset('p1', 'Lean', ['campaignName', 'localSpend']);
    setup({ presets: [defaultPreset, lean, preset('p2', 'Wide', ['campaignName'])], options: { 'optimization-column-presets': { CAMPAIGNS: 'p1' } } });
    mockApi('PATCH /api/setFields/one/p1', ok({ item: { ...lean, name: 'Lean view' } }));
    mockApi('DELETE /api/setFields/one/p1', ok({ item: lean }));
    renderApp('/optimization/a1/42', makeUser());
    await userEvent.click(await screen.findByRole('button', { name: /Columns · Lean/ }));
    const modal = await screen.findByRole('dialog', { name: 'Edit columns' });
    await userEvent.click(within(modal).getByRole('button', { name: 'Rename preset Lean' }));
    const input = within(modal).getByRole('textbox', { name: 'Preset name' });
    await userEvent.clear(input);
    await userEvent.type(input, 'wide');
    expect(within(modal).getByText('A preset with this name already exists')).toBeInTheDocument();
    expect(within(modal).getByRole('button', { name: 'Save name' })).toBeDisabled();
    await userEvent.clear(input);
    await userEvent.type(input, 'Lean view{Enter}');
    await waitFor(() => expect(callsTo('PATCH /api/setFields/one/p1')[0]?.body).toEqual({ id: 'p1', name: 'Lean view' }));
    await userEvent.click(within(modal).getByRole('button', { name: 'Delete preset Lean' }));
    await waitFor(() => expect(callsTo('DELETE /api/setFields/one/p1')).toHaveLength(1));
    expect(await screen.findByText('Preset deleted')).toBeInTheDocument();
  });

  it('disables the tag filter while there are no tags', async () => {
    setup();
    renderApp('/optimization/a1/42', makeUser());
    await screen.findByRole('link', { name: 'Brand US' }, { timeout: 10_000 });
    await userEvent.click(screen.getByRole('button', { name: 'Filters' }));
    const dialog = await screen.findByRole('dialog', { name: 'Filters' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add filter' }));
    await waitFor(() => expect(callsTo('GET /api/reports/allTags')).toHaveLength(1));
    expect(await within(dialog).findByRole('menuitem', { name: 'Tag' })).toBeDisabled();
    await userEvent.click(within(dialog).getByRole('menuitem', { name: 'Name' }));
    expect(within(dialog).getByRole('button', { name: 'Apply' })).toBeDisabled();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Value' }), 'brand');
    expect(within(dialog).getByRole('button', { name: 'Apply' })).toBeEnabled();
  });

  it('selects rows one by one and the whole page', async () => {
    setup();
    renderApp('/optimization/a1/42', makeUser());
    const table = await screen.findByTestId('report-table', {}, { timeout: 10_000 });
    await within(table).findByRole('link', { name: 'Brand US' });
    await userEvent.click(within(table).getByRole('checkbox', { name: 'Select Brand US' }));
    expect(screen.getByTestId('selection-count')).toHaveTextContent('1 selected');
    await userEvent.click(within(table).getByRole('checkbox', { name: 'Select all rows on this page' }));
    expect(screen.getByTestId('selection-count')).toHaveTextContent('2 selected');
    await userEvent.click(within(table).getByRole('checkbox', { name: 'Select all rows on this page' }));
    expect(screen.queryByTestId('selection-count')).not.toBeInTheDocument();
  });
});
