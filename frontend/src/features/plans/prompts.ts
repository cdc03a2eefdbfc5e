/**
 * What the web app shows of the banner and upsell modal that `plan/current` answers
 * (docs/product.md#4-banners Banners, Upsell modals): the server decides which one applies; the
 * browser remembers which banners were closed and which modals were seen (per type, in local
 * storage) and where none is shown. Pure functions over an explicit storage, so the rules are
 * tested without a page.
 */
import { t } from '@/i18n';
import type { Banner, Plan, UpsellModal } from './api/plan';

export const SUBSCRIPTION_PATH = '/settings/subscription';
/**
 * docs/product.md#2-layout: the API connection screen disables the menu; no upsell
 * interrupts it.
 */
const NO_MODAL_PATHS = [SUBSCRIPTION_PATH, '/oauth_v2'];

export const BANNER_CLOSED_PREFIX = 'searchdeck:banner-closed:';
export const MODAL_SEEN_PREFIX = 'searchdeck:upsell-seen:';
/**
 * Session storage: the offer modal this sign-in has shown and the plan it was shown on (at
 * most one per sign-in and plan), as `offerShown` writes it.
 */
export const OFFER_SHOWN_KEY = 'searchdeck:offer-shown';
/**
 * The banner that stands for the spend-over-$10,000 offer (docs/product.md#8-banner-messages),
 * closed per this type.
 */
export const SPEND_BANNER_TYPE = 'spendOverFreeLimit';

/** The part of `Storage` the rules use (local storage in the browser). */
export type KeyStore = Pick<Storage, 'getItem' | 'setItem'>;

export function isBannerClosed(store: KeyStore, type: string): boolean {
  return store.getItem(BANNER_CLOSED_PREFIX + type) !== null;
}

/** A banner as the page shows it: the server's, or the spend offer's (`spendBanner`). */
export type ShownBanner = Omit<Banner, 'type'> & { type: string };

/** Saves the closing of a banner type; banners that cannot be closed are never saved. */
export function closeBanner(store: KeyStore, banner: ShownBanner) {
  if (banner.closable) store.setItem(BANNER_CLOSED_PREFIX + banner.type, String(Date.now()));
}

export function isModalSeen(store: KeyStore, type: string): boolean {
  return store.getItem(MODAL_SEEN_PREFIX + type) !== null;
}

export function markModalSeen(store: KeyStore, type: string) {
  store.setItem(MODAL_SEEN_PREFIX + type, String(Date.now()));
}

/**
 * The banner to show: the server's, unless it can be closed and its type was closed here
 * (appleDataIssues and addCreditLine are answered `closable: false` and always show).
 */
export function shownBanner(banner: Banner | null | undefined, store: KeyStore): Banner | null {
  if (!banner) return null;
  if (banner.closable && isBannerClosed(store, banner.type)) return null;
  return banner;
}

/** Where the upsell modal may open: after the first sync, once per sign-in. */
export interface ModalMoment {
  pathname: string;
  /** A connection's first sync is still running: nothing interrupts it. */
  firstSyncRunning: boolean;
  /** The offer modal this sign-in has shown already (`OFFER_SHOWN_KEY`), if any. */
  shownThisSignIn: string | null;
}

/** The `OFFER_SHOWN_KEY` value for the offer `type` shown on `plan`. */
export function offerShown(plan: Plan | undefined, type: string): string {
  return `${plan ?? ''}/${type}`;
}

/**
 * Whether the offer this sign-in showed (`shown`, an `offerShown` value) holds the place of
 * a modal on `plan`: it does while the plan it was shown on stands. A plan that changed since
 * (the trial started, or ended) is a new situation with its own one modal — the trial's
 * ending reminder days after its offer was taken, in a tab that stayed signed in.
 */
export function holdsThePlace(shown: string | null, plan: Plan | undefined): boolean {
  return shown !== null && shown.slice(0, shown.indexOf('/')) === (plan ?? '');
}

/**
 * The spend-over-$10,000 offer (`upgrade` on pro_limited) is the banner of
 * docs/product.md#8-banner-messages, with the days left to upgrade, rather than a modal.
 */
export function isSpendOffer(modal: UpsellModal | null | undefined, plan: Plan | undefined): boolean {
  return modal?.type === 'upgrade' && plan === 'pro_limited';
}

/**
 * The upsell modal to open: the server's, unless its type was seen here, the page is the
 * subscription page (which offers the same) or the API connection screen, a first sync is
 * still running, this sign-in showed another offer on the same plan already, or it is the
 * spend offer (a banner).
 */
export function shownModal(modal: UpsellModal | null | undefined, store: KeyStore, moment: ModalMoment, plan?: Plan): UpsellModal | null {
  if (!modal) return null;
  if (NO_MODAL_PATHS.includes(moment.pathname)) return null;
  if (isModalSeen(store, modal.type)) return null;
  if (isSpendOffer(modal, plan)) return null;
  if (moment.firstSyncRunning) return null;
  if (holdsThePlace(moment.shownThisSignIn, plan) && moment.shownThisSignIn !== offerShown(plan, modal.type)) return null;
  return modal;
}

/**
 * The spend offer as a banner (docs/product.md#8-banner-messages: monthly spend over $10,000, with
 * the days left to upgrade when the plan answer has them), unless closed here.
 */
export function spendBanner(modal: UpsellModal | null | undefined, plan: Plan | undefined, daysLeft: number | null | undefined, store: KeyStore): ShownBanner | null {
  if (!modal || !isSpendOffer(modal, plan) || store.getItem(BANNER_CLOSED_PREFIX + SPEND_BANNER_TYPE) !== null) return null;
  const days = typeof daysLeft === 'number' ? ` ${t('plans.spendDaysLeft').replace('{days}', String(daysLeft))}` : '';
  return {
    // Closed per its own type; shown with the modal's words.
    type: SPEND_BANNER_TYPE,
    closable: true,
    message: `${modal.title}. ${modal.description}${days}`,
    button: modal.confirmEnabled ? modal.confirm : null,
    contactAdmin: modal.confirmEnabled ? null : modal.footer ?? null,
  };
}

/** What a banner offers the user: a link to the subscription page, the contact text, or nothing. */
export type BannerAction = { kind: 'link'; label: string; to: string } | { kind: 'contact'; text: string } | null;

/**
 * The banner's button leads to Settings › Subscription (where upgrades and billing start);
 * a user whose role cannot open that page reads the contact-your-admin text instead of a
 * button that would only lead to /restricted.
 */
export function bannerAction(banner: ShownBanner, mayOpenSubscription: boolean): BannerAction {
  if (banner.button && mayOpenSubscription) return { kind: 'link', label: banner.button, to: SUBSCRIPTION_PATH };
  if (banner.contactAdmin) return { kind: 'contact', text: banner.contactAdmin };
  if (banner.button) return { kind: 'contact', text: t('plans.contactAdminUpgrade') };
  return null;
}

/** What the modal's confirm does. */
export type ModalConfirm = 'startTrial' | 'upgrade' | 'close';

/**
 * 'Start trial' starts the Pro trial, 'Upgrade' leads to the subscription page, anything else
 * ('Got it') only closes. A disabled confirm (other roles' offers) does nothing.
 */
export function modalConfirm(modal: UpsellModal): ModalConfirm {
  if (!modal.confirmEnabled) return 'close';
  if (modal.confirm === 'Start trial') return 'startTrial';
  if (modal.confirm === 'Upgrade') return 'upgrade';
  return 'close';
}

/**
 * The limit modal's text (docs/product.md#8-limit-reached): expand on pro and pro_trial, else
 * upgrade.
 */
export function limitText(plan: Plan | undefined): string {
  return t(plan === 'pro' || plan === 'pro_trial' ? 'limit.expandText' : 'limit.upgradeText');
}
