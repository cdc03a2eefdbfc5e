import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { callsTo, fail, mockApi, mockApiDefault, ok } from '@/test/fetch-mock';
import { makeAttributionEvent, makeConnected, makeEventName, makeIntegrations, makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const adjustConnected = makeConnected('adjust', 'tok_first_abcd').item;
const connectedList = () => ok({ items: makeIntegrations({ adjust: adjustConnected }) });

function connectedPage(role: 'owner' | 'writer' | 'reader' = 'owner', events: unknown[] = [], names: unknown[] = []) {
  mockApiDefault('GET /api/attribution/integrations', connectedList());
  mockApiDefault('GET /api/attribution/integrations/adjust/events', ok({ items: events }));
  mockApiDefault('GET /api/mmpEventsSettings/allNames', ok({ items: names }));
  return renderApp('/settings/integration?provider=adjust', makeUser({ permission: role }));
}

describe('an integration’s page', () => {
  it('explains a provider not connected and connects it, showing the URL and the secret once', async () => {
    const user = userEvent.setup();
    const connected = makeConnected('custom', 'tok_custom_wxyz', 'whsec_0123456789abcdef');
    mockApi('GET /api/attribution/integrations', ok({ items: makeIntegrations() }), ok({ items: makeIntegrations({ custom: connected.item }) }));
    mockApi('POST /api/attribution/integrations/custom', ok(connected));
    mockApi('GET /api/attribution/integrations/custom/events', ok({ items: [] }));
    mockApi('GET /api/mmpEventsSettings/allNames', ok({ items: [] }));
    renderApp('/settings/integration?provider=custom', makeUser());
    expect(await screen.findByRole('heading', { name: 'Custom tracking server' })).toBeInTheDocument();
    expect(screen.getByText('Not connected')).toBeInTheDocument();
    expect(screen.getByText(/Searchdeck gives you a postback URL to paste into Custom tracking server/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Connect Custom tracking server' }));
    const panel = await screen.findByRole('region', { name: 'Your postback URL' });
    expect(within(panel).getByTestId('new-url')).toHaveTextContent('/api/attribution/postbacks/custom/tok_custom_wxyz');
    expect(within(panel).getByTestId('new-secret')).toHaveTextContent('whsec_0123456789abcdef');
    expect(within(panel).getByRole('button', { name: 'Copy the secret' })).toBeInTheDocument();
    expect(within(panel).getByText(/It will not be shown again either/)).toBeInTheDocument();
    // The steps and the method of the answer; the masked URL is not repeated under the full one.
    const steps = screen.getByRole('list', { name: 'In Custom tracking server' });
    expect(within(steps).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Open the dashboard', 'Paste the URL']);
    expect(screen.getByTestId('method')).toHaveTextContent('POST');
    expect(screen.queryByTestId('masked-url')).not.toBeInTheDocument();
  });

  it('shows the masked URL after a reload, and rotates it only once confirmed', async () => {
    const user = userEvent.setup();
    const rotated = makeConnected('adjust', 'tok_second_efgh');
    connectedPage();
    mockApi('POST /api/attribution/integrations/adjust/rotate', ok(rotated));
    expect(await screen.findByTestId('masked-url')).toHaveTextContent('…/adjust/…abcd');
    expect(screen.queryByRole('region', { name: 'Your postback URL' })).not.toBeInTheDocument();
    expect(screen.getByTestId('method')).toHaveTextContent('GET');

    await user.click(screen.getByRole('button', { name: 'Rotate URL' }));
    let dialog = await screen.findByRole('dialog', { name: 'Rotate the postback URL?' });
    expect(within(dialog).getByText(/The old URL stops working at once/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(callsTo('POST /api/attribution/integrations/adjust/rotate')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Rotate URL' }));
    dialog = await screen.findByRole('dialog', { name: 'Rotate the postback URL?' });
    await user.click(within(dialog).getByRole('button', { name: 'Rotate URL' }));
    const panel = await screen.findByRole('region', { name: 'Your postback URL' });
    expect(within(panel).getByTestId('new-url')).toHaveTextContent('/api/attribution/postbacks/adjust/tok_second_efgh');
    expect(callsTo('POST /api/attribution/integrations/adjust/rotate')).toHaveLength(1);
  });

  it('lists the events with a refund in red, and puts a test event first, marked Test', async () => {
    const user = userEvent.setup();
    const refund = makeAttributionEvent('e2', { kind: 'event', eventName: 'refund', revenue: '-4.99', currency: 'USD', claimType: 'Impression', keywordId: null, receivedAt: Date.now() - 60_000 });
    const install = makeAttributionEvent('e1', { receivedAt: Date.now() - 120_000 });
    const test = makeAttributionEvent('t1', { test: true, receivedAt: Date.now() });
    let events = [refund, install];
    mockApi('GET /api/attribution/integrations/adjust/events', () => ok({ items: events }));
    connectedPage('writer');
    mockApi('POST /api/attribution/integrations/adjust/test-event', () => {
      events = [test, ...events];
      return ok({ items: [test] });
    });
    const table = await screen.findByRole('table', { name: 'Recent events' });
    let rows = within(table).getAllByTestId('event-row');
    expect(rows).toHaveLength(2);
    const amount = within(rows[0]!).getByText('-$4.99');
    expect(amount).toHaveAttribute('data-negative', 'true');
    expect(within(rows[0]!).getByText('View-through')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Search Match')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('542370539')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Tap-through')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('03/12/2026')).toBeInTheDocument();
    expect(within(table).queryByText('Test')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Send test event' }));
    await waitFor(() => expect(within(table).getAllByTestId('event-row')).toHaveLength(3));
    rows = within(table).getAllByTestId('event-row');
    expect(within(rows[0]!).getByText('Test')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Install')).toBeInTheDocument();
  });

  it('says when no event has arrived yet', async () => {
    connectedPage();
    expect(await screen.findByTestId('no-events')).toHaveTextContent('No events yet. Paste the URL into Adjust');
    expect(await screen.findByText('No event names yet: they appear here once Adjust sends its first in-app event.')).toBeInTheDocument();
  });

  it('changes what an event counts as at once, with the PATCH body, and puts it back when refused', async () => {
    const user = userEvent.setup();
    const trial = makeEventName('adjust', 'start_trial', { countsAs: { trial: true, purchase: false, revenue: false } });
    const other = makeEventName('appsflyer', 'af_purchase');
    connectedPage('owner', [], [trial, other]);
    let refuse: (() => void) | undefined;
    mockApi('PATCH /api/mmpEventsSettings/one', () => new Promise((resolve) => (refuse = () => resolve(fail(404, 'No such event name')))));
    const settings = await screen.findByRole('table', { name: 'Event settings' });
    // Only this provider's names.
    expect(within(settings).queryByText('af_purchase')).not.toBeInTheDocument();
    expect(within(settings).getByRole('checkbox', { name: 'start_trial counts as Trial' })).toBeChecked();
    const revenue = within(settings).getByRole('checkbox', { name: 'start_trial counts as Revenue' });
    await user.click(revenue);
    expect(revenue).toBeChecked();
    await waitFor(() => expect(callsTo('PATCH /api/mmpEventsSettings/one')).toHaveLength(1));
    expect(callsTo('PATCH /api/mmpEventsSettings/one')[0]?.body).toEqual({
      provider: 'adjust',
      adamId: '123456789',
      eventName: 'start_trial',
      countsAs: { trial: true, purchase: false, revenue: true },
    });
    refuse?.();
    await waitFor(() => expect(within(settings).getByRole('checkbox', { name: 'start_trial counts as Revenue' })).not.toBeChecked());
    expect(await screen.findByText('No such event name')).toBeInTheDocument();
  });

  it('gives a reader everything to read and nothing to change', async () => {
    connectedPage('reader', [makeAttributionEvent('e1')], [makeEventName('adjust', 'purchase')]);
    expect(await screen.findByRole('button', { name: 'Rotate URL' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Send test event' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Disconnect' })).toBeDisabled();
    const settings = await screen.findByRole('table', { name: 'Event settings' });
    for (const box of within(settings).getAllByRole('checkbox')) expect(box).toBeDisabled();
    expect(screen.getByRole('table', { name: 'Recent events' })).toBeInTheDocument();
  });

  it('gives a reader no Connect on a provider not connected', async () => {
    mockApi('GET /api/attribution/integrations', ok({ items: makeIntegrations() }));
    renderApp('/settings/integration?provider=branch', makeUser({ permission: 'reader' }));
    expect(await screen.findByRole('button', { name: 'Connect Branch' })).toBeDisabled();
  });

  it('disconnects once confirmed', async () => {
    const user = userEvent.setup();
    let disconnected = false;
    mockApi('GET /api/attribution/integrations', () => (disconnected ? ok({ items: makeIntegrations() }) : connectedList()));
    connectedPage();
    mockApi('DELETE /api/attribution/integrations/adjust', () => {
      disconnected = true;
      return ok({ item: makeIntegrations()[1] });
    });
    await user.click(await screen.findByRole('button', { name: 'Disconnect' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disconnect Adjust?' });
    expect(within(dialog).getByText('The postback URL stops working at once. The events already received stay in the reports.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Disconnect' }));
    expect(await screen.findByRole('button', { name: 'Connect Adjust' })).toBeInTheDocument();
    expect(callsTo('DELETE /api/attribution/integrations/adjust')).toHaveLength(1);
  });

  it('shows a provider it does not know as not found, with the way back', async () => {
    mockApi('GET /api/attribution/integrations', ok({ items: makeIntegrations() }));
    renderApp('/settings/integration?provider=mixpanel', makeUser());
    const card = await screen.findByTestId('unknown-provider');
    expect(within(card).getByText('Searchdeck has no integration named “mixpanel”.')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'All integrations' })).toHaveAttribute('href', '/settings/integrations');
  });
});
