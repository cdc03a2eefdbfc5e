/**
 * Paths of the optimization screens this feature links to (docs/product.md#2-url-paths-and-access).
 */
export const OPTIMIZATION_PATH = '/optimization';
/** The API connection screen; also where the connect popup returns. */
export const CONNECT_PATH = '/oauth_v2';

/** optimization_accounts (All accounts): every account of the workspace with its totals. */
export const ALL_ACCOUNTS_PATH = `${OPTIMIZATION_PATH}/accounts`;

/** optimization_orgs: the campaign groups of an account. */
export function orgsPath(accountId: string): string {
  return `${OPTIMIZATION_PATH}/${encodeURIComponent(accountId)}`;
}

/** optimization_campaigns: the campaigns of one campaign group (the drill-down's first table). */
export function campaignsPath(accountId: string, orgId: string): string {
  return `${orgsPath(accountId)}/${orgId}`;
}
