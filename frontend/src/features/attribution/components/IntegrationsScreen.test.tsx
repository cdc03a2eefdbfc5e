import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { callsTo, mockApi, ok } from '@/test/fetch-mock';
import { makeConnected, makeIntegrations, makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const HOUR = 3_600_000;

describe('Settings › Integrations', () => {
  it('lists every provider by kind with its status, last event and events in 24 h', async () => {
    mockApi(
      'GET /api/attribution/integrations',
      ok({
        items: makeIntegrations({
          appsflyer: { connected: true, status: 'Active', lastEventAt: Date.now() - 2 * HOUR, eventsLastDay: 1280, connectedAt: 1 },
          adjust: { connected: true, status: 'Loading data', connectedAt: 1 },
        }),
      }),
    );
    renderApp('/settings/integrations', makeUser());
    const mmps = await screen.findByRole('table', { name: 'Attribution providers' });
    const rows = within(mmps).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[0]?.querySelector('a')?.textContent)).toEqual(['AppsFlyer', 'Adjust', 'Branch', 'Singular', 'Kochava', 'Tenjin']);
    const [appsflyer, adjust, branch] = rows;
    expect(within(appsflyer!).getByText('Active')).toBeInTheDocument();
    expect(within(appsflyer!).getByText('2 hours ago')).toBeInTheDocument();
    expect(within(appsflyer!).getByText('1 280')).toBeInTheDocument();
    expect(within(appsflyer!).getByRole('link', { name: 'Open AppsFlyer' })).toHaveAttribute('href', '/settings/integration?provider=appsflyer');
    expect(within(adjust!).getByText('Loading data')).toBeInTheDocument();
    expect(within(adjust!).getByText('No events yet')).toBeInTheDocument();
    expect(within(branch!).getByText('Not connected')).toBeInTheDocument();
    expect(within(branch!).getByRole('button', { name: 'Connect Branch' })).toBeEnabled();
    expect(within(screen.getByRole('table', { name: 'Revenue' })).getByText('RevenueCat')).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Custom' })).getByText('Custom tracking server')).toBeInTheDocument();
    // The section is in the Settings tabs, for every role.
    expect(screen.getByRole('tab', { name: 'Integrations', selected: true })).toBeInTheDocument();
  });

  it('lets a reader look but not connect', async () => {
    mockApi('GET /api/attribution/integrations', ok({ items: makeIntegrations() }));
    renderApp('/settings/integrations', makeUser({ permission: 'reader' }));
    const connect = await screen.findByRole('button', { name: 'Connect Adjust' });
    expect(connect).toBeDisabled();
    await userEvent.hover(connect.parentElement!);
    expect(await screen.findAllByText('Ask an admin or editor to connect or change integrations')).not.toHaveLength(0);
    expect(screen.getByRole('tab', { name: 'Integrations' })).toBeInTheDocument();
  });

  it('connects from the list and shows the new URL once on the provider’s page', async () => {
    const user = userEvent.setup();
    const connected = makeConnected('adjust');
    mockApi('GET /api/attribution/integrations', ok({ items: makeIntegrations() }), ok({ items: makeIntegrations({ adjust: connected.item }) }));
    mockApi('POST /api/attribution/integrations/adjust', ok(connected));
    mockApi('GET /api/attribution/integrations/adjust/events', ok({ items: [] }));
    mockApi('GET /api/mmpEventsSettings/allNames', ok({ items: [] }));
    const { location } = renderApp('/settings/integrations', makeUser({ permission: 'writer' }));
    await user.click(await screen.findByRole('button', { name: 'Connect Adjust' }));
    await waitFor(() => expect(location()).toBe('/settings/integration?provider=adjust'));
    const panel = await screen.findByRole('region', { name: 'Your postback URL' });
    expect(within(panel).getByTestId('new-url')).toHaveTextContent(connected.setup.url);
    expect(within(panel).getByText('Copy it now: it will not be shown again. If you lose it, rotate the URL to get a new one.')).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Copy the URL' }));
    expect(await within(panel).findByText('Copied')).toBeInTheDocument();
    expect(callsTo('POST /api/attribution/integrations/adjust')).toHaveLength(1);
  });
});
