import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { callsTo, fail, mockApi, ok } from '@/test/fetch-mock';
import { makePlanAnswer, makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const trialPurchase = {
  id: 'p1', name: 'pro', free: false, trial: true, full: false, organization: false, usedTrial: true,
  usedPreTrial: false, usedGrowthTrial: false, startedAt: Date.UTC(2026, 10, 20), offAccountTime: Date.UTC(2026, 11, 4),
  paymentFailed: false, suggester: true,
};

describe('settings › subscription', () => {
  it('shows the plan, the trial status, last month’s spend against $10,000 and the limits', async () => {
    mockApi('GET /api/plan/current', ok(makePlanAnswer({ plan: 'pro_limited', lastMonthSpend: '12345.67', freeTrialStatus: 'NoTrial' })));
    mockApi('GET /api/purchase/all', ok({ items: [] }));
    renderApp('/settings/subscription', makeUser());
    expect(await screen.findByTestId('plan-name')).toHaveTextContent('Pro (limited)');
    expect(screen.getByTestId('trial-status')).toHaveTextContent('No trial yet');
    expect(screen.getByTestId('spend-card')).toHaveTextContent('$12 345.67');
    expect(screen.getByTestId('spend-card')).toHaveTextContent('$10 000.00');
    expect(screen.getByTestId('limit-apps')).toHaveTextContent('5');
    expect(screen.getByTestId('limit-rulesCampaigns')).toHaveTextContent('20');
    expect(await screen.findByText('No purchases yet.')).toBeInTheDocument();
    // Until billing exists the upgrade entry gives the operator's command for this workspace (issue 42 item 20).
    expect(screen.queryByText(/coming with billing/)).not.toBeInTheDocument();
    expect(screen.getByTestId('upgrade-how')).toHaveTextContent('the operator of this server gives a workspace a paid plan');
    expect(screen.getByTestId('upgrade-command')).toHaveTextContent(`searchdeck plans set --workspace ${makeUser().workspaceId} --plan pro`);
    expect(screen.getByRole('button', { name: 'Copy command' })).toBeEnabled();
    // The header's upgrade button is hidden here; Settings shows its sections.
    expect(screen.queryByRole('link', { name: 'Upgrade' })).not.toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Subscription', selected: true })).toBeInTheDocument();
  });

  it('starts the Pro trial: the success message, then the plan and purchases as they are now', async () => {
    mockApi('GET /api/plan/current', ok(makePlanAnswer()), ok(makePlanAnswer({
      plan: 'pro_trial', freeTrialStatus: 'TrialStarted', offAccountTime: trialPurchase.offAccountTime, daysLeft: 14,
      limits: { apps: 35, developers: 10, campaigns: 500, keywordGroups: 500, rules: 50, rulesCampaigns: 200 },
    })));
    mockApi('GET /api/purchase/all', ok({ items: [] }), ok({ items: [trialPurchase] }));
    mockApi('GET /api/pay/giveMeTrial', ok({ status: 'ok', plan: 'pro_trial', purchase: trialPurchase }));
    renderApp('/settings/subscription', makeUser({ permission: 'admin' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Start 14-day Pro trial' }));
    expect(await screen.findByText('Congratulations! Your 14-day Pro Plan trial has begun')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('plan-name')).toHaveTextContent('Pro trial'));
    expect(screen.getByTestId('trial-status')).toHaveTextContent('Trial running');
    expect(screen.getByTestId('plan-end')).toHaveTextContent('04/12/2026 (14 days left)');
    expect(screen.getByTestId('limit-apps')).toHaveTextContent('35');
    const row = within(await screen.findByTestId('purchases')).getByRole('row', { name: /Pro trial/ });
    expect(row).toHaveTextContent('20/11/2026');
    expect(screen.queryByRole('button', { name: 'Start 14-day Pro trial' })).not.toBeInTheDocument();
    expect(callsTo('GET /api/pay/giveMeTrial')).toHaveLength(1);
  });

  it('shows what the workspace uses of each limit, with a bar where the plan limits it', async () => {
    mockApi('GET /api/plan/current', ok(makePlanAnswer({
      usage: { apps: 4, developers: 2, campaigns: 30, keywordGroups: null, rules: 1234, rulesCampaigns: 0 },
    })));
    mockApi('GET /api/purchase/all', ok({ items: [] }));
    renderApp('/settings/subscription', makeUser());
    expect(await screen.findByTestId('limit-apps')).toHaveTextContent('4 / 5');
    expect(screen.getByTestId('limit-developers')).toHaveTextContent('2 / 2');
    expect(screen.getByTestId('limit-campaigns')).toHaveTextContent('30 / 100');
    // Ad groups are limited per creation: the limit alone, no bar.
    expect(screen.getByTestId('limit-keywordGroups')).toHaveTextContent('100 per creation');
    expect(screen.queryByTestId('usage-bar-keywordGroups')).not.toBeInTheDocument();
    expect(screen.getByTestId('limit-rules')).toHaveTextContent('1 234 / 10');
    expect(screen.getByTestId('limit-rulesCampaigns')).toHaveTextContent('0 / 20');
    const bar = (field: string) => within(screen.getByTestId(`usage-bar-${field}`)).getByRole('progressbar');
    expect(bar('apps')).toHaveAttribute('aria-valuenow', '80');
    expect(bar('campaigns')).toHaveAttribute('aria-valuenow', '30');
    // Past the limit the bar is full.
    expect(bar('rules')).toHaveAttribute('aria-valuenow', '100');
  });

  it('shows usage without a bar on a plan without limits', async () => {
    mockApi('GET /api/plan/current', ok(makePlanAnswer({
      plan: 'agency',
      limits: { apps: null, developers: null, campaigns: null, keywordGroups: null, rules: null, rulesCampaigns: null },
      usage: { apps: 7, developers: 3, campaigns: 250, keywordGroups: null, rules: 2, rulesCampaigns: 5 },
    })));
    mockApi('GET /api/purchase/all', ok({ items: [] }));
    renderApp('/settings/subscription', makeUser());
    expect(await screen.findByTestId('limit-apps')).toHaveTextContent('7 (no limit)');
    expect(screen.getByTestId('limit-keywordGroups')).toHaveTextContent('No limit');
    expect(screen.queryByTestId('usage-bar-apps')).not.toBeInTheDocument();
  });

  it('says when the trial was had already, and when purchases fail to load', async () => {
    mockApi('GET /api/plan/current', ok(makePlanAnswer({ freeTrialStatus: 'TrialEnded' })));
    mockApi('GET /api/purchase/all', fail(500, 'Error. Try again later'));
    renderApp('/settings/subscription', makeUser());
    expect(await screen.findByText('An error has occurred while fetching purchases. Error. Try again later')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Start 14-day Pro trial' })).not.toBeInTheDocument();
  });

  it('is for owners and admins: others go to /restricted and the section is hidden', async () => {
    renderApp('/settings/subscription', makeUser({ permission: 'writer' }));
    expect(await screen.findByText("Your role doesn't give you access to this page.")).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Subscription' })).not.toBeInTheDocument();
  });

  it('lists Subscription in the settings sections and shows the upgrade button elsewhere, for owners', async () => {
    renderApp('/settings/general', makeUser());
    expect(await screen.findByRole('tab', { name: 'Subscription' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Upgrade' })).toHaveAttribute('href', '/settings/subscription');
  });

  it('hides Subscription and the upgrade button from readers', async () => {
    mockApi('GET /api/plan/current', ok(makePlanAnswer({ canUpgrade: false })));
    renderApp('/settings/general', makeUser({ permission: 'reader' }));
    expect(await screen.findByRole('tab', { name: 'General' })).toBeInTheDocument();
    await waitFor(() => expect(callsTo('GET /api/plan/current').length).toBeGreaterThan(0));
    expect(screen.queryByRole('tab', { name: 'Subscription' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Upgrade' })).not.toBeInTheDocument();
  });

  it("tells a member the server lets not upgrade to ask an owner or admin, without the operator's command", async () => {
    mockApi('GET /api/plan/current', ok(makePlanAnswer({ canUpgrade: false })));
    mockApi('GET /api/purchase/all', ok({ items: [] }));
    renderApp('/settings/subscription', makeUser({ permission: 'admin' }));
    expect(await screen.findByTestId('upgrade-how')).toHaveTextContent('Ask an owner or admin of this workspace.');
    expect(screen.queryByTestId('upgrade-command')).not.toBeInTheDocument();
  });

  it('says what being over a limit means and why: apps arrived with a sync, adding more is refused, the rest works (issue 42 item 8)', async () => {
    mockApi('GET /api/plan/current', ok(makePlanAnswer({
      usage: { apps: 6, developers: 6, campaigns: 30, keywordGroups: null, rules: 10, rulesCampaigns: 0 },
    })));
    mockApi('GET /api/purchase/all', ok({ items: [] }));
    renderApp('/settings/subscription', makeUser());
    const notice = await screen.findByTestId('limit-notice');
    expect(notice).toHaveTextContent("Apps 6 of 5: your accounts' syncs brought in more apps than your plan includes");
    expect(notice).toHaveTextContent('Connecting another account or adding a campaign group is refused');
    expect(notice).toHaveTextContent('Developers 6 of 2');
    expect(notice).toHaveTextContent('Automated rules 10 of 10: the limit is reached. Making more is refused');
    expect(notice).toHaveTextContent('Nothing you have stops working: syncs, the tables, edits, rules and the activity log go on as before.');
    expect(notice).not.toHaveTextContent('Campaigns per campaign group');
  });

  it('says nothing of limits while under them', async () => {
    mockApi('GET /api/plan/current', ok(makePlanAnswer({ usage: { apps: 1, developers: 1, campaigns: 3, keywordGroups: null, rules: 0, rulesCampaigns: 0 } })));
    mockApi('GET /api/purchase/all', ok({ items: [] }));
    renderApp('/settings/subscription', makeUser());
    await screen.findByTestId('limit-apps');
    expect(screen.queryByTestId('limit-notice')).not.toBeInTheDocument();
  });
});
