/**
 * The public face of the accounts feature (Apple Ads connections) for the app shell and
 * other features. Its screens, and the header's account selector, are in `screens.ts`, which
 * the app imports lazily (the selector and the add-account modal stay out of the sign-in page).
 */
export type { Account, Org } from './api/account';
export { accountsQuery, useAccounts } from './api/get-accounts';
export { accountKeys } from './api/keys';
export { useRefreshOrgs } from './api/refresh-orgs';
export { ConnectionPlace, type ConnectionPlaceProps } from './components/ConnectionPlace';
export { SyncNow, syncTimes } from './components/SyncNow';
export { saveActiveChoice, useActiveAccount, type ActiveAccount } from './hooks/useActiveAccount';
export type { ActiveChoice } from './active';
export { ALL_ACCOUNTS_PATH, campaignsPath, CONNECT_PATH, orgsPath } from './paths';
