/**
 * The drill-down's addresses (docs/product.md#2-url-paths-and-access):
 * optimization/{accountId}/{orgId} for the campaigns, then campaign-id-{campaignId}/{tab} for a
 * campaign's ad groups, keywords, negative keywords, search terms and ads, and
 * campaign-id-{campaignId}/ad-group-id- {adGroupId}/{tab} for an ad group's. Each tab is a report
 * level.
 */

import { campaignsPath } from '@/features/accounts';
import { positiveIdIn, type EntityId } from '@/lib/ids';

export { campaignsPath };

export type Level = 'ACCOUNTS' | 'ORGS' | 'CAMPAIGNS' | 'GROUPS' | 'KEYWORDS' | 'NEGATIVE' | 'SEARCHTERMS' | 'ADS';

/** The tabs under a campaign, in the order they show. */
export const CAMPAIGN_TABS = ['groups', 'keywords', 'negative-keywords', 'searchterms', 'ads'] as const;
/** The tabs under an ad group. */
export const AD_GROUP_TABS = ['keywords', 'searchterms', 'ads', 'negative-keywords'] as const;
export type Tab = (typeof CAMPAIGN_TABS)[number];

export const TAB_LEVEL: Record<Tab, Level> = {
  groups: 'GROUPS',
  keywords: 'KEYWORDS',
  'negative-keywords': 'NEGATIVE',
  searchterms: 'SEARCHTERMS',
  ads: 'ADS',
};

/** Where a drill-down address points. */
export interface DrillTarget {
  accountId: string;
  orgId: EntityId;
  campaignId: EntityId | null;
  adGroupId: EntityId | null;
  /** Null on the campaigns page. */
  tab: Tab | null;
  level: Level;
}

export function campaignPath(accountId: string, orgId: EntityId, campaignId: EntityId, tab: Tab = 'groups'): string {
  return `${campaignsPath(accountId, orgId)}/campaign-id-${campaignId}/${tab}`;
}

export function adGroupPath(accountId: string, orgId: EntityId, campaignId: EntityId, adGroupId: EntityId, tab: Tab = 'keywords'): string {
  return `${campaignsPath(accountId, orgId)}/campaign-id-${campaignId}/ad-group-id-${adGroupId}/${tab}`;
}

/** The address of `target` with another tab (the level tabs). */
export function tabPath(target: DrillTarget, tab: Tab): string {
  if (target.campaignId === null) return campaignsPath(target.accountId, target.orgId);
  if (target.adGroupId === null) return campaignPath(target.accountId, target.orgId, target.campaignId, tab);
  return adGroupPath(target.accountId, target.orgId, target.campaignId, target.adGroupId, tab);
}

const positiveId = positiveIdIn;

function isTab(text: string | undefined, tabs: readonly Tab[]): text is Tab {
  return text !== undefined && (tabs as readonly string[]).includes(text);
}

/**
 * The target of the router's params (`accountId`, `orgId`, then up to three segments:
 * `campaign`, `adGroup`, `tab`), or null for an address that is not a drill-down level.
 */
export function parseDrill(params: Partial<Record<'accountId' | 'orgId' | 'campaign' | 'adGroup' | 'tab', string>>): DrillTarget | null {
  const { accountId, campaign, adGroup, tab } = params;
  const orgId = positiveId(params.orgId);
  if (!accountId || orgId === null) return null;
  if (campaign === undefined) return { accountId, orgId, campaignId: null, adGroupId: null, tab: null, level: 'CAMPAIGNS' };
  const campaignId = positiveId(campaign, 'campaign-id-');
  if (campaignId === null) return null;
  if (adGroup === undefined) {
    return isTab(tab, CAMPAIGN_TABS) ? { accountId, orgId, campaignId, adGroupId: null, tab, level: TAB_LEVEL[tab] } : null;
  }
  const adGroupId = positiveId(adGroup, 'ad-group-id-');
  if (adGroupId === null || !isTab(tab, AD_GROUP_TABS)) return null;
  return { accountId, orgId, campaignId, adGroupId, tab, level: TAB_LEVEL[tab] };
}
