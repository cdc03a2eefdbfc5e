import type { Banner, UpsellModal } from './api/plan';
import {
  bannerAction,
  closeBanner,
  holdsThePlace,
  isModalSeen,
  limitText,
  markModalSeen,
  modalConfirm,
  offerShown,
  shownBanner,
  spendBanner,
  shownModal,
  type KeyStore,
  type ModalMoment,
} from './prompts';

function memoryStore(): KeyStore & { keys: Map<string, string> } {
  const keys = new Map<string, string>();
  return { keys, getItem: (k) => keys.get(k) ?? null, setItem: (k, v) => void keys.set(k, v) };
}

const banner = (overrides: Partial<Banner> = {}): Banner => ({
  type: 'proTrialEnding',
  closable: true,
  message: 'Your Pro trial ends in less than 3 days.',
  button: 'Upgrade',
  contactAdmin: null,
  ...overrides,
});

const modal = (overrides: Partial<UpsellModal> = {}): UpsellModal => ({
  type: 'proTrial',
  variant: null,
  title: 'Try Pro for 14 days',
  info: null,
  description: 'Start your 14-day Pro trial.',
  confirm: 'Start trial',
  confirmEnabled: true,
  cancel: 'Later',
  footer: null,
  daysLeft: null,
  ...overrides,
});

describe('the top banner shown', () => {
  it('is the server’s until its type is closed, then stays closed for that type only', () => {
    const store = memoryStore();
    expect(shownBanner(null, store)).toBeNull();
    expect(shownBanner(banner(), store)?.type).toBe('proTrialEnding');
    closeBanner(store, banner());
    expect(shownBanner(banner(), store)).toBeNull();
    expect(shownBanner(banner({ type: 'proTrialEnd' }), store)?.type).toBe('proTrialEnd');
  });

  it('never hides appleDataIssues or addCreditLine, which cannot be closed', () => {
    for (const type of ['appleDataIssues', 'addCreditLine']) {
      const store = memoryStore();
      const fixed = banner({ type: type as Banner['type'], closable: false, button: null });
      closeBanner(store, fixed);
      expect(store.keys.size).toBe(0);
      // Even a stale saved closing of the type does not hide it.
      store.setItem(`searchdeck:banner-closed:${type}`, '1');
      expect(shownBanner(fixed, store)?.type).toBe(type);
    }
  });

  it('leads owners and admins to the subscription page and tells others to contact their admin', () => {
    expect(bannerAction(banner(), true)).toEqual({ kind: 'link', label: 'Upgrade', to: '/settings/subscription' });
    const forReader = banner({ button: null, contactAdmin: 'Please contact your admin to upgrade plan' });
    expect(bannerAction(forReader, false)).toEqual({ kind: 'contact', text: 'Please contact your admin to upgrade plan' });
    // Growth and billing banners carry their button for everyone; a role that cannot open the
    // subscription page reads the contact text rather than a button to /restricted.
    expect(bannerAction(banner({ type: 'growthTrailEnd' }), false)).toEqual({ kind: 'contact', text: 'Please contact your admin to upgrade plan' });
    expect(bannerAction(banner({ type: 'appleDataIssues', button: null, closable: false }), false)).toBeNull();
  });
});

/** A page of the app after the first sync, before any offer this sign-in. */
const at = (pathname: string): ModalMoment => ({ pathname, firstSyncRunning: false, shownThisSignIn: null });

describe('the upsell modal shown', () => {
  it('waits for the first sync, and a sign-in shows one offer modal at most (issue 42)', () => {
    const store = memoryStore();
    expect(shownModal(modal(), store, { ...at('/optimization'), firstSyncRunning: true })).toBeNull();
    expect(shownModal(modal(), store, at('/optimization'))?.type).toBe('proTrial');
    // Another offer after the first one this sign-in, on the same plan: none.
    const shown = offerShown('pro_free', 'proTrial');
    expect(shownModal(modal({ type: 'proFree' }), store, { ...at('/optimization'), shownThisSignIn: shown }, 'pro_free')).toBeNull();
    expect(shownModal(modal(), store, { ...at('/optimization'), shownThisSignIn: shown }, 'pro_free')?.type).toBe('proTrial');
    // Once the plan changed (the trial taken), its own reminder shows in the same sign-in.
    const ending = modal({ type: 'proTrialEnding3days', title: 'Your Pro trial ends in 3 days' });
    expect(shownModal(ending, store, { ...at('/optimization'), shownThisSignIn: shown }, 'pro_trial')?.type).toBe('proTrialEnding3days');
    expect(holdsThePlace(shown, 'pro_free')).toBe(true);
    expect(holdsThePlace(shown, 'pro_trial')).toBe(false);
    expect(holdsThePlace(null, 'pro_free')).toBe(false);
  });

  it('makes the spend-over-$10,000 offer the banner of spec §8, not a modal', () => {
    const store = memoryStore();
    const spend = modal({ type: 'upgrade', title: 'Your ad spend passed $10,000 last month', description: 'Upgrade to Pro to keep every feature.', confirm: 'Upgrade' });
    expect(shownModal(spend, store, at('/optimization'), 'pro_limited')).toBeNull();
    expect(spendBanner(spend, 'pro_limited', 5, store)).toMatchObject({
      type: 'spendOverFreeLimit',
      closable: true,
      message: 'Your ad spend passed $10,000 last month. Upgrade to Pro to keep every feature. Days left to upgrade: 5.',
      button: 'Upgrade',
    });
    expect(spendBanner(spend, 'pro_free', 5, store)).toBeNull();
    expect(spendBanner(modal(), 'pro_limited', null, store)).toBeNull();
  });

  it('is the server’s until its type is seen', () => {
    const store = memoryStore();
    expect(shownModal(null, store, at('/optimization'))).toBeNull();
    expect(shownModal(modal(), store, at('/optimization'))?.type).toBe('proTrial');
    markModalSeen(store, 'proTrial');
    expect(isModalSeen(store, 'proTrial')).toBe(true);
    expect(shownModal(modal(), store, at('/optimization'))).toBeNull();
    // Each trial-ending modal is a type of its own: the 2-day one shows after the 3-day one.
    markModalSeen(store, 'proTrialEnding3days');
    expect(shownModal(modal({ type: 'proTrialEnding2day', daysLeft: 2 }), store, at('/optimization'))?.daysLeft).toBe(2);
  });

  it('does not interrupt the subscription page or the API connection screen', () => {
    const store = memoryStore();
    expect(shownModal(modal(), store, at('/settings/subscription'))).toBeNull();
    expect(shownModal(modal(), store, at('/oauth_v2'))).toBeNull();
    expect(shownModal(modal(), store, at('/settings/general'))).not.toBeNull();
  });

  it('starts the trial, leads to the upgrade or only closes by its confirm', () => {
    expect(modalConfirm(modal())).toBe('startTrial');
    expect(modalConfirm(modal({ type: 'upgrade', confirm: 'Upgrade' }))).toBe('upgrade');
    expect(modalConfirm(modal({ type: 'proFree', confirm: 'Got it' }))).toBe('close');
    // Other roles' offers: the confirm is disabled and does nothing.
    expect(modalConfirm(modal({ confirmEnabled: false, info: 'Please contact your admin to start the trial' }))).toBe('close');
  });
});

describe('the limit modal text', () => {
  it('offers to expand the limits on pro and pro_trial, else to upgrade (spec §8)', () => {
    expect(limitText('pro')).toBe('Do you want to expand the limits?');
    expect(limitText('pro_trial')).toBe('Do you want to expand the limits?');
    for (const plan of ['pro_free', 'pro_limited', 'growth', undefined] as const) {
      expect(limitText(plan)).toBe('Upgrade to full or pro, or buy another demo');
    }
  });
});
