import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { callsTo, mockApi, mockApiDefault, ok } from '@/test/fetch-mock';
import { makeConnected, makeIntegrations, makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const appsflyer = makeConnected('appsflyer', 'tok_first_abcd').item;
const pull = { token: '…wxyz', appIds: ['id900'], currency: 'USD', events: ['af_start_trial', 'af_subscribe', 'af_purchase'], updatedAt: 1764763200000, lastSuccessAt: null, lastError: 'AppsFlyer refused the API token: give a current V2 token (AppsFlyer › API tokens)', lastErrorAt: 1764763200000 };

function page(role: 'owner' | 'reader', item = appsflyer) {
  mockApiDefault('GET /api/attribution/integrations', ok({ items: makeIntegrations({ appsflyer: item }) }));
  mockApiDefault('GET /api/attribution/integrations/appsflyer/events', ok({ items: [] }));
  mockApiDefault('GET /api/mmpEventsSettings/allNames', ok({ items: [] }));
  return renderApp('/settings/integration?provider=appsflyer', makeUser({ permission: role }));
}

describe('the API pull card', () => {
  it('sets the token with the app ids and sends it once, never showing it again', async () => {
    const user = userEvent.setup();
    page('owner');
    const saved = { ...appsflyer, pull: { ...pull, lastError: null, lastErrorAt: null } };
    mockApi('PUT /api/attribution/integrations/appsflyer/pull', ok({ item: saved }));
    const card = await screen.findByTestId('pull-card');
    await user.click(within(card).getByRole('button', { name: 'Set API token' }));
    await user.type(within(card).getByLabelText(/API token/), 'secret-token-wxyz');
    await user.type(within(card).getByLabelText(/App ids/), 'id900, id901');
    mockApi('GET /api/attribution/integrations', ok({ items: makeIntegrations({ appsflyer: saved }) }));
    await user.click(within(card).getByRole('button', { name: 'Save and pull' }));
    expect(await within(card).findByText('Token …wxyz · apps id900')).toBeInTheDocument();
    const [call] = callsTo('PUT /api/attribution/integrations/appsflyer/pull');
    expect(call?.body).toEqual({ token: 'secret-token-wxyz', appIds: ['id900', 'id901'], currency: 'USD' });
    expect(within(card).queryByDisplayValue('secret-token-wxyz')).not.toBeInTheDocument();
  });

  it('shows the last error in the user’s words, and readers cannot change it', async () => {
    page('reader', { ...appsflyer, pull });
    const card = await screen.findByTestId('pull-card');
    expect(within(card).getByRole('alert')).toHaveTextContent('AppsFlyer refused the API token');
    expect(within(card).getByText('Not pulled yet')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Replace API token' })).toBeDisabled();
  });

  it('is not shown for a provider without a reporting API', async () => {
    mockApiDefault('GET /api/attribution/integrations', ok({ items: makeIntegrations({ adjust: makeConnected('adjust').item }) }));
    mockApiDefault('GET /api/attribution/integrations/adjust/events', ok({ items: [] }));
    mockApiDefault('GET /api/mmpEventsSettings/allNames', ok({ items: [] }));
    renderApp('/settings/integration?provider=adjust', makeUser());
    expect(await screen.findByTestId('masked-url')).toBeInTheDocument();
    expect(screen.queryByTestId('pull-card')).not.toBeInTheDocument();
  });
});
