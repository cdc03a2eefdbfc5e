import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { api, emptyResultSchema } from '@/lib/api-client';
import { callsTo, fail, mockApi, mockUndocumented, ok } from '@/test/fetch-mock';
import { makeAccount, makePlanAnswer, makeTask, makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import type { PlanAnswer } from '../api/plan';

const trialOffer: NonNullable<PlanAnswer['modal']> = {
  type: 'proTrial',
  variant: null,
  title: 'Try Pro for 14 days',
  info: 'A 14-day free trial, no card required.',
  description: 'Start your 14-day Pro trial: higher limits and MMP events.',
  confirm: 'Start trial',
  confirmEnabled: true,
  cancel: 'Later',
  footer: null,
  daysLeft: null,
};

const ending: NonNullable<PlanAnswer['banner']> = {
  type: 'proTrialEnding',
  closable: true,
  message: 'Your Pro trial ends in less than 3 days.',
  button: 'Upgrade',
  contactAdmin: null,
};

const trialPurchase = {
  id: 'p1', name: 'pro', free: false, trial: true, full: false, organization: false, usedTrial: true,
  usedPreTrial: false, usedGrowthTrial: false, startedAt: 1_796_000_000_000, offAccountTime: 1_797_209_600_000,
  paymentFailed: false, suggester: true,
};

describe('the top banner', () => {
  it('shows the banner plan/current answers and, once closed, not again for its type', async () => {
    mockApi('GET /api/plan/current', ok(makePlanAnswer({ plan: 'pro_trial', banner: ending })));
    const first = renderApp('/settings/general', makeUser());
    const banner = await screen.findByTestId('plan-banner');
    expect(banner).toHaveTextContent('Your Pro trial ends in less than 3 days.');
    expect(within(banner).getByRole('link', { name: 'Upgrade' })).toHaveAttribute('href', '/settings/subscription');
    await userEvent.click(within(banner).getByRole('button', { name: 'Close banner' }));
    expect(screen.queryByTestId('plan-banner')).not.toBeInTheDocument();
    first.unmount();
    renderApp('/settings/general', makeUser());
    expect(await screen.findByRole('heading', { name: 'General' })).toBeInTheDocument();
    expect(screen.queryByTestId('plan-banner')).not.toBeInTheDocument();
  });

  it('cannot close the provider data banner, and tells readers to contact their admin', async () => {
    mockApi('GET /api/plan/current', ok(makePlanAnswer({
      canUpgrade: false,
      banner: { type: 'appleDataIssues', closable: false, message: 'We are currently experiencing issues receiving data from the provider.', button: null, contactAdmin: null },
    })));
    renderApp('/settings/general', makeUser({ permission: 'reader' }));
    const banner = await screen.findByTestId('plan-banner');
    expect(within(banner).queryByRole('button', { name: 'Close banner' })).not.toBeInTheDocument();
  });

  it('gives other roles the contact text instead of the button', async () => {
    mockApi('GET /api/plan/current', ok(makePlanAnswer({
      canUpgrade: false,
      banner: { ...ending, type: 'proTrialEnd', message: 'Your Pro trial has ended.', button: null, contactAdmin: 'Please contact your admin to upgrade plan' },
    })));
    renderApp('/settings/general', makeUser({ permission: 'writer' }));
    const banner = await screen.findByTestId('plan-banner');
    expect(banner).toHaveTextContent('Please contact your admin to upgrade plan');
    expect(within(banner).queryByRole('link')).not.toBeInTheDocument();
  });
});

describe('the upsell modal', () => {
  it('waits for the first sync, shows one offer per sign-in, and shows the spend offer as the banner (issue 42)', async () => {
    const account = makeAccount('a1', 'Main', [{ orgId: '42', displayName: 'Cloud Apps' }]);
    mockApi('GET /api/account/getAll', ok({ items: [account] }));
    let syncing = true;
    mockApi('GET /api/tasks', () => ok({ items: [makeTask({ id: 's1', kind: 'sync-account', accountId: 'a1', message: 'Syncing campaigns', finish: !syncing })] }));
    const spendOffer = { ...trialOffer, type: 'upgrade' as const, title: 'Your ad spend passed $10,000 last month', description: 'Upgrade to Pro to keep every feature.', info: null, confirm: 'Upgrade', cancel: null, footer: 'Pro is free while the monthly ad spend is at most $10,000.' };
    let answer = makePlanAnswer({ modal: trialOffer });
    mockApi('GET /api/plan/current', () => ok(answer));
    const { queryClient } = renderApp('/settings/general', makeUser());
    expect(await screen.findByRole('heading', { name: 'General' })).toBeInTheDocument();
    await waitFor(() => expect(callsTo('GET /api/tasks').length).toBeGreaterThan(0));
    // The first sync is running: no offer over it.
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    syncing = false;
    await act(() => queryClient.invalidateQueries({ queryKey: ['tasks'] }));
    const dialog = await screen.findByRole('dialog', { name: 'Try Pro for 14 days' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Later' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    // Spend passed $10,000: the same sign-in gets no second modal, the banner says it.
    answer = makePlanAnswer({ plan: 'pro_limited', modal: spendOffer, lastMonthSpend: '12000.00' });
    await act(() => queryClient.invalidateQueries({ queryKey: ['plans'] }));
    const banner = await screen.findByTestId('plan-banner');
    expect(banner).toHaveTextContent('Your ad spend passed $10,000 last month. Upgrade to Pro to keep every feature.');
    expect(within(banner).getByRole('link', { name: 'Upgrade' })).toHaveAttribute('href', '/settings/subscription');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('starts the Pro trial from the offer, says so and is not shown again', async () => {
    mockApi('GET /api/plan/current', ok(makePlanAnswer({ modal: trialOffer })), ok(makePlanAnswer({ plan: 'pro_trial', freeTrialStatus: 'TrialStarted' })));
    mockApi('GET /api/pay/giveMeTrial', ok({ status: 'ok', plan: 'pro_trial', purchase: trialPurchase }));
    renderApp('/settings/general', makeUser());
    const dialog = await screen.findByRole('dialog', { name: 'Try Pro for 14 days' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Start trial' }));
    expect(await screen.findByText('Congratulations! Your 14-day Pro Plan trial has begun')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(callsTo('GET /api/pay/giveMeTrial')).toHaveLength(1);
    expect(window.localStorage.getItem('searchdeck:upsell-seen:proTrial')).not.toBeNull();
  });

  it('closes with the failure message when the trial is refused', async () => {
    mockApi('GET /api/plan/current', ok(makePlanAnswer({ modal: trialOffer })));
    mockApi('GET /api/pay/giveMeTrial', fail(409, 'The Pro trial has already been used'));
    renderApp('/settings/general', makeUser());
    const dialog = await screen.findByRole('dialog', { name: 'Try Pro for 14 days' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Start trial' }));
    expect(await screen.findByText('Error in getting a trial')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows other roles the contact text with the confirm disabled; Later stores it as seen', async () => {
    mockApi('GET /api/plan/current', ok(makePlanAnswer({
      canUpgrade: false,
      modal: { ...trialOffer, info: 'Please contact your admin to start the trial', confirmEnabled: false },
    })));
    renderApp('/settings/general', makeUser({ permission: 'writer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Try Pro for 14 days' });
    expect(dialog).toHaveTextContent('Please contact your admin to start the trial');
    expect(within(dialog).getByRole('button', { name: 'Start trial' })).toBeDisabled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Later' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(window.localStorage.getItem('searchdeck:upsell-seen:proTrial')).not.toBeNull();
    expect(callsTo('GET /api/pay/giveMeTrial')).toHaveLength(0);
  });

  it('shows the days left of a trial-ending modal and leads Upgrade to the subscription page', async () => {
    mockApi('GET /api/plan/current', ok(makePlanAnswer({
      plan: 'pro_trial',
      freeTrialStatus: 'TrialStarted',
      modal: { ...trialOffer, type: 'proTrialEnding2day', title: 'Your Pro trial ends in 2 days', info: null, confirm: 'Upgrade', daysLeft: 2 },
    })));
    mockApi('GET /api/purchase/all', ok({ items: [trialPurchase] }));
    renderApp('/settings/general', makeUser());
    const dialog = await screen.findByRole('dialog', { name: 'Your Pro trial ends in 2 days' });
    expect(dialog).toHaveTextContent('2 days left');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Upgrade' }));
    expect(await screen.findByTestId('plan-summary')).toBeInTheDocument();
    expect(window.localStorage.getItem('searchdeck:upsell-seen:proTrialEnding2day')).not.toBeNull();
  });
});

describe('the limit modal', () => {
  it('opens once on a LIMIT_HAS_BEEN_REACHED answer of any call, titled by meta.type', async () => {
    mockUndocumented('POST /api/asa/campaigns', fail(403, 'LIMIT_HAS_BEEN_REACHED', [], { type: 'AVAILABLECAMPAIGNS' }));
    mockUndocumented('POST /api/rules', fail(403, 'LIMIT_HAS_BEEN_REACHED', [], { type: 'AVAILABLERULES' }));
    renderApp('/settings/general', makeUser());
    expect(await screen.findByRole('heading', { name: 'General' })).toBeInTheDocument();
    await act(() => expect(api.post('/asa/campaigns', {}, emptyResultSchema)).rejects.toThrow());
    const dialog = await screen.findByRole('dialog', { name: 'The limit of campaigns has been exceeded' });
    expect(dialog).toHaveTextContent('Upgrade to full or pro, or buy another demo');
    // A second limit while it is open changes nothing.
    await act(() => expect(api.post('/rules', {}, emptyResultSchema)).rejects.toThrow());
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    expect(screen.getByRole('dialog', { name: 'The limit of campaigns has been exceeded' })).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Expand' }));
    expect(await screen.findByTestId('plan-summary')).toBeInTheDocument();
  });

  it('offers to expand on pro plans, and is 380 px wide', async () => {
    mockApi('GET /api/plan/current', ok(makePlanAnswer({ plan: 'pro_trial', freeTrialStatus: 'TrialStarted' })));
    mockUndocumented('POST /api/x', fail(403, 'LIMIT_HAS_BEEN_REACHED', [], { type: 'AVAILABLEAPPS' }));
    renderApp('/settings/general', makeUser());
    expect(await screen.findByRole('heading', { name: 'General' })).toBeInTheDocument();
    await waitFor(() => expect(callsTo('GET /api/plan/current').length).toBeGreaterThan(0));
    await act(() => expect(api.post('/x', {}, emptyResultSchema)).rejects.toThrow());
    const dialog = await screen.findByRole('dialog', { name: "You've reached the limit of apps/developers" });
    await waitFor(() => expect(dialog).toHaveTextContent('Do you want to expand the limits?'));
    // Mantine writes the width in rem: 380 px = 23.75rem.
    expect(dialog.closest('.mantine-Modal-root')?.getAttribute('style')).toContain('--modal-size: calc(23.75rem');
  });
});
