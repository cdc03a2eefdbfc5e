import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { callsTo, fail, mockApi, ok } from '@/test/fetch-mock';
import { makeIntegrations, makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const PATH = '/api/users/one/connect/appStore';
const ISSUER = '57246542-96fe-1a63-e053-0824d011072a';

const connection = {
  id: 'c1',
  name: '2X9R4HXF34',
  issuerId: ISSUER,
  keyId: '2X9R4HXF34',
  vendorNumber: '80012345',
  apps: [
    { adamId: 900, name: 'Habit Tracker', bundleId: 'com.example.habits' },
    { adamId: 901, name: 'Sleep Sounds', bundleId: 'com.example.sleep' },
  ],
  history: true,
  lastDay: '2026-12-03',
  lastSuccessAt: 1764849600000,
  lastError: null,
  lastErrorAt: null,
  createdAt: 1764763200000,
};

function page(role: 'owner' | 'reader') {
  mockApi('GET /api/attribution/integrations', ok({ items: makeIntegrations() }));
  return renderApp('/settings/integrations', makeUser({ permission: role }));
}

describe('the App Store Connect card', () => {
  it('connects a key with its .p8 file, naming a field the server refused', async () => {
    const user = userEvent.setup();
    const loading = { ...connection, history: false, lastDay: null, lastSuccessAt: null };
    // Empty until the key is connected, then the key loading its sales.
    mockApi(`GET ${PATH}`, ok({ items: [] }), ok({ items: [loading] }));
    page('owner');
    const card = await screen.findByTestId('app-store-connect-card');
    expect(await within(card).findByText('No App Store Connect key connected yet.')).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Connect App Store Connect' }));
    // The client checks the ids' shapes first.
    await user.type(within(card).getByLabelText(/Issuer ID/), 'not-a-uuid');
    await user.click(within(card).getByRole('button', { name: 'Check and connect' }));
    expect(await within(card).findByText(/The issuer id is a UUID/)).toBeInTheDocument();
    expect(within(card).getByText('Choose the .p8 file App Store Connect gave for the key')).toBeInTheDocument();
    expect(callsTo(`PUT ${PATH}`)).toHaveLength(0);

    await user.clear(within(card).getByLabelText(/Issuer ID/));
    await user.type(within(card).getByLabelText(/Issuer ID/), ISSUER);
    await user.type(within(card).getByLabelText(/Key ID/), '2X9R4HXF34');
    await user.type(within(card).getByLabelText(/Vendor number/), '80012345');
    const p8 = new File(['-----BEGIN PRIVATE KEY-----\nMIGT\n-----END PRIVATE KEY-----\n'], 'AuthKey_2X9R4HXF34.p8', { type: 'application/pkcs8' });
    // Mantine's FileInput is a button over a hidden file input: the upload goes to the input.
    expect(within(card).getByLabelText(/Private key/)).toBeInTheDocument();
    await user.upload(card.querySelector<HTMLInputElement>('input[type="file"]')!, p8);
    expect(await within(card).findByText('AuthKey_2X9R4HXF34.p8')).toBeInTheDocument();
    // Refused once by App Store Connect (the field named), then accepted.
    mockApi(`PUT ${PATH}`, fail(400, 'Validation failed', [{ field: 'key', message: 'App Store Connect refused this key: Authentication credentials are missing or invalid.' }]), ok({ item: loading }));
    await user.click(within(card).getByRole('button', { name: 'Check and connect' }));
    expect(await within(card).findByText(/App Store Connect refused this key/)).toBeInTheDocument();

    await user.click(within(card).getByRole('button', { name: 'Check and connect' }));
    const row = await within(card).findByTestId('app-store-connection');
    expect(within(row).getByText('Loading data')).toBeInTheDocument();
    expect(within(row).getByText('Reading the last 30 days of sales…')).toBeInTheDocument();
    expect(within(row).getByText(/Apps found: Habit Tracker, Sleep Sounds/)).toBeInTheDocument();
    const call = callsTo(`PUT ${PATH}`)[1]!;
    const body = call.body as Record<string, unknown>;
    expect({ issuerId: body.issuerId, keyId: body.keyId, vendorNumber: body.vendorNumber }).toEqual({ issuerId: ISSUER, keyId: '2X9R4HXF34', vendorNumber: '80012345' });
    expect((body.key as File).name).toBe('AuthKey_2X9R4HXF34.p8');
  });

  it('shows each key’s status, apps and 30-day proceeds, and disconnects after a confirm', async () => {
    const user = userEvent.setup();
    mockApi(`GET ${PATH}`, ok({ items: [connection] }));
    mockApi(
      `GET ${PATH}/c1/proceeds`,
      ok({
        items: [
          { adamId: 900, appName: 'Habit Tracker', day: '2026-12-02', units: 40, proceeds: 20.97, currency: 'USD' },
          { adamId: 900, appName: 'Habit Tracker', day: '2026-12-03', units: 35, proceeds: 13.98, currency: 'USD' },
          { adamId: 901, appName: 'Sleep Sounds', day: '2026-12-03', units: 12, proceeds: 6.99, currency: 'USD' },
        ],
      }),
    );
    page('owner');
    const row = await screen.findByTestId('app-store-connection');
    expect(within(row).getByText('Active')).toBeInTheDocument();
    expect(within(row).getByText('Key 2X9R4HXF34')).toBeInTheDocument();
    const table = await within(row).findByRole('table', { name: 'Last 30 days' });
    const cells = within(table).getAllByRole('row').slice(1).map((r) => within(r).getAllByRole('cell').map((c) => c.textContent));
    expect(cells.map((c) => [c[0], c[1]])).toEqual([
      ['Habit Tracker', '75'],
      ['Sleep Sounds', '12'],
    ]);
    expect(cells[0]![2]).toMatch(/34[.,]95/);
    const query = callsTo(`GET ${PATH}/c1/proceeds`)[0]!.url;
    expect(query).toMatch(/from=\d{4}-\d{2}-\d{2}&through=\d{4}-\d{2}-\d{2}/);

    mockApi(`DELETE ${PATH}/c1`, ok({ items: [] }));
    await user.click(within(row).getByRole('button', { name: 'Disconnect' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disconnect key 2X9R4HXF34?' });
    expect(callsTo(`DELETE ${PATH}/c1`)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Disconnect' }));
    await waitFor(() => expect(screen.queryByTestId('app-store-connection')).not.toBeInTheDocument());
    expect(callsTo(`DELETE ${PATH}/c1`)).toHaveLength(1);
  });

  it('shows a failed read in the user’s words, and readers change nothing', async () => {
    const failed = { ...connection, history: false, lastDay: null, lastSuccessAt: null, lastError: 'App Store Connect refused the report: You don’t have access to this vendor number.', lastErrorAt: 1764849600000 };
    mockApi(`GET ${PATH}`, ok({ items: [failed] }));
    page('reader');
    const row = await screen.findByTestId('app-store-connection');
    expect(within(row).getByRole('alert')).toHaveTextContent('refused the report');
    expect(within(row).getByRole('button', { name: 'Disconnect' })).toBeDisabled();
    const card = screen.getByTestId('app-store-connect-card');
    expect(within(card).getByRole('button', { name: 'Connect another key' })).toBeDisabled();
  });
});
