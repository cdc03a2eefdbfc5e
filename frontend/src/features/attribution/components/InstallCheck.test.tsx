import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, mockApiDefault, ok } from '@/test/fetch-mock';
import { makeConnected, makeInstallCheck, makeIntegrations, makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const HOUR = 3_600_000;
const connected = (provider: string, installCheck: ReturnType<typeof makeInstallCheck> | null) => ({ ...makeConnected(provider).item, status: 'Active', lastEventAt: Date.now() - HOUR, installCheck });

function providerPage(installCheck: ReturnType<typeof makeInstallCheck> | null, provider = 'adjust') {
  mockApiDefault('GET /api/attribution/integrations', ok({ items: makeIntegrations({ [provider]: connected(provider, installCheck) }) }));
  mockApiDefault(`GET /api/attribution/integrations/${provider}/events`, ok({ items: [] }));
  mockApiDefault('GET /api/mmpEventsSettings/allNames', ok({ items: [] }));
  return renderApp(`/settings/integration?provider=${provider}`, makeUser());
}

const steps = (alert: HTMLElement) => within(within(alert).getByRole('list', { name: 'What to do' })).getAllByRole('listitem').map((li) => li.textContent);

describe('the install check', () => {
  it('marks a failing check on the list with its cause in two words and the rate on hover', async () => {
    mockApi(
      'GET /api/attribution/integrations',
      ok({
        items: makeIntegrations({
          appsflyer: connected('appsflyer', makeInstallCheck({ trackedInstalls: 0, trackedWithKeyword: 0, finding: 'NO_POSTBACKS', message: 'No postbacks from AppsFlyer…' })),
          adjust: connected('adjust', makeInstallCheck()),
          singular: connected('singular', makeInstallCheck({ trackedInstalls: 300, trackedWithKeyword: 200, finding: 'LOW_RATE', message: 'Fewer than half…' })),
        }),
      }),
    );
    renderApp('/settings/integrations', makeUser());
    const table = await screen.findByRole('table', { name: 'Attribution providers' });
    const [appsflyer, adjust, , singular] = within(table).getAllByRole('row').slice(1);
    expect(within(appsflyer!).getByTestId('install-check-badge')).toHaveTextContent('No postbacks');
    expect(within(appsflyer!).getByText('Active')).toBeInTheDocument();
    expect(within(adjust!).queryByTestId('install-check-badge')).not.toBeInTheDocument();
    const low = within(singular!).getByTestId('install-check-badge');
    expect(low).toHaveTextContent('Low install rate');
    await userEvent.hover(low);
    expect(await screen.findByText(/Install check: 30 ?% of Apple Ads’ installs arrived from 26\/11\/2026 to 02\/12\/2026/)).toBeInTheDocument();
  });

  it('says no postbacks arrived and to check the URL in the provider’s dashboard', async () => {
    providerPage(makeInstallCheck({ trackedInstalls: 0, trackedWithKeyword: 0, appleInstalls: 240, finding: 'NO_POSTBACKS', message: 'No postbacks from Adjust…' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveAttribute('data-finding', 'NO_POSTBACKS');
    expect(within(alert).getByText('No postbacks from Adjust')).toBeInTheDocument();
    expect(alert).toHaveTextContent(/0 of the 240 installs Apple Ads reports arrived from Adjust from 26\/11\/2026 to 02\/12\/2026: 0 ?%/);
    expect(alert).toHaveTextContent('Nothing arrived from Adjust in the last 24 hours while Apple Ads reports installs');
    expect(steps(alert)[0]).toBe('In Adjust’s dashboard, check that the postback URL under Setup is pasted exactly and enabled for installs and in-app events.');
    // It stands above the setup it points to.
    expect(alert.compareDocumentPosition(screen.getByTestId('masked-url')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('says the standard payload leaves keywords out, and to turn on the detailed AdServices payload', async () => {
    providerPage(makeInstallCheck({ trackedInstalls: 900, trackedWithKeyword: 0, finding: 'NO_KEYWORDS', message: 'Installs from Adjust arrive without keyword ids…' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Adjust sends installs without keywords')).toBeInTheDocument();
    expect(alert).toHaveTextContent(/900 of the 1 000 installs .*: 90 ?%\. None of them named a keyword\./);
    expect(alert).toHaveTextContent('standard Apple Ads attribution payload');
    expect(steps(alert)).toEqual(['Turn on the detailed Apple Ads attribution (the AdServices payload with keyword ids) in Adjust’s Apple Ads settings.']);
  });

  it('names the age and gender targeting Apple stopped attributing when the rate is low', async () => {
    providerPage(makeInstallCheck({ trackedInstalls: 364, trackedWithKeyword: 300, finding: 'LOW_RATE', message: 'Fewer than half…' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Most installs do not arrive from Adjust')).toBeInTheDocument();
    expect(alert).toHaveTextContent(/36\.4 ?%/);
    expect(alert).toHaveTextContent('Since September 2026 Apple no longer attributes installs of ad groups that target age or gender');
    expect(steps(alert)).toHaveLength(2);
  });

  it('shows a passing check quietly, as a status', async () => {
    providerPage(makeInstallCheck());
    const check = await screen.findByTestId('install-check');
    expect(check).toHaveTextContent(/Install check820 of the 1 000 installs Apple Ads reports arrived from Adjust .*: 82 ?%\. 610 of them named a keyword\./);
    expect(check).toHaveAttribute('role', 'status');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says when there is nothing to compare with', async () => {
    providerPage(makeInstallCheck({ trackedInstalls: 0, trackedWithKeyword: 0, appleInstalls: 0 }));
    expect(await screen.findByTestId('install-check')).toHaveTextContent('Apple Ads reports no installs from 26/11/2026 to 02/12/2026, so there is nothing to compare Adjust’s 0 installs with yet.');
  });

  it('shows nothing for RevenueCat, which sends no installs', async () => {
    providerPage(null, 'revenuecat');
    expect(await screen.findByRole('heading', { name: 'RevenueCat' })).toBeInTheDocument();
    expect(await screen.findByTestId('masked-url')).toBeInTheDocument();
    expect(screen.queryByTestId('install-check')).not.toBeInTheDocument();
  });
});
