/**
 * Steps 4 and 5 as pure functions (docs/product.md#2-keyword-suggester,
 * docs/product.md#3-campaign-create-payload, docs/api/creation.md): the campaigns the segments
 * make, their names from a pattern (app, country, segment, match type) and as the user edited them,
 * the names' problems (empty, too long, twice in the list, already in the campaign group), and the
 * body of `PUT /api/asa/campaigns/asa/all` from the plan and the settings form.
 *
 * Structure: one campaign per segment, with one ad group per match type ('Exact', 'Broad').
 * This is the structure Apple Ads practitioners use (Brand / Category / Competitor campaigns,
 * each with an exact ad group and, when wanted, a broad one, plus a Discovery campaign): a
 * segment's budget stays in one campaign, and its exact and broad ad groups can be compared
 * side by side. When a segment has both, its Broad ad group carries the segment's keywords
 * as EXACT negatives, so the broad ad group looks for new queries instead of bidding against
 * its own exact ad group.
 */
import type { PickedKeyword } from './saved';
import { keywordsBySegment, matchTypesOf, type MatchChoice, type MatchType, type Segment } from './segmentation';

/** The contract's longest campaign name. */
export const MAX_CAMPAIGN_NAME = 200;
/** The contract's most campaigns a body (the discovery campaign included). */
export const MAX_CAMPAIGNS = 50;
/** The contract's most keywords an ad group. */
export const MAX_GROUP_KEYWORDS = 5000;

/** The default name pattern; `{app}`, `{country}`, `{segment}` and `{match}` are filled in. */
export const DEFAULT_PATTERN = '{app} - {country} - {segment} - {match}';

/** A campaign of the plan: one per segment holding keywords. */
export interface PlannedCampaign {
  /** The segment's id. */
  key: string;
  segment: Segment;
  match: MatchChoice;
  keywords: string[];
  /** The name from the pattern. */
  patternName: string;
}

/**
 * The names a user typed over the pattern's, by campaign key (docs/product.md#3-suggester-state
 * campaigns to create).
 */
export type NameEdits = Record<string, string>;

export interface NameParts {
  app: string;
  country: string;
  segment: string;
  match: string;
}

/** `pattern` filled in; spaces collapsed and separators left dangling by an empty part removed. */
export function fillPattern(pattern: string, parts: NameParts): string {
  const filled = pattern.replace(/\{(app|country|segment|match)\}/g, (_, key: keyof NameParts) => parts[key]);
  return filled
    .replace(/\s+/g, ' ')
    .replace(/^(\s*[-–|·]\s*)+|(\s*[-–|·]\s*)+$/g, '')
    .replace(/(\s[-–|·])(\s[-–|·])+\s/g, '$1 ')
    .trim();
}

/** The plan of the segments holding keywords, in the segments' order. */
export function planCampaigns(
  selected: readonly PickedKeyword[],
  segments: readonly Segment[],
  pattern: string,
  parts: { app: string; country: string; segmentLabel: (s: Segment) => string; matchLabel: (m: MatchChoice) => string },
): PlannedCampaign[] {
  const bySegment = keywordsBySegment(selected, segments);
  const plan: PlannedCampaign[] = [];
  for (const segment of segments) {
    const keywords = (bySegment.get(segment.id) ?? []).map((p) => p.name);
    if (keywords.length === 0) continue;
    plan.push({
      key: segment.id,
      segment,
      match: segment.match,
      keywords,
      patternName: fillPattern(pattern, { app: parts.app, country: parts.country, segment: parts.segmentLabel(segment), match: parts.matchLabel(segment.match) }),
    });
  }
  return plan;
}

/** A campaign's name: the user's where they typed one, else the pattern's. */
export function nameOf(campaign: PlannedCampaign, edits: NameEdits): string {
  return edits[campaign.key] ?? campaign.patternName;
}

export type NameProblem = 'empty' | 'long' | 'duplicate' | 'exists';

/** Names compared as Apple compares them: trimmed, case-insensitive. */
export const nameKey = (name: string): string => name.trim().toLowerCase();

/**
 * Each name's problem (or null): empty, over 200 characters, twice in the list (both are
 * flagged), or already a campaign of the campaign group (`existing`: keys of names found).
 */
export function nameProblems(names: readonly string[], existing: ReadonlySet<string>): (NameProblem | null)[] {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(nameKey(name), (counts.get(nameKey(name)) ?? 0) + 1);
  return names.map((name) => {
    if (name.trim() === '') return 'empty';
    if (name.trim().length > MAX_CAMPAIGN_NAME) return 'long';
    if ((counts.get(nameKey(name)) ?? 0) > 1) return 'duplicate';
    if (existing.has(nameKey(name))) return 'exists';
    return null;
  });
}

/** Money as the contract takes it. */
export interface Money {
  amount: string;
  currency: string;
}

/** The settings form's values as sent (amounts already checked by the money schema). */
export interface CreationSettings {
  countries: string[];
  dailyBudget: string;
  defaultBid: string;
  cpaGoal: string | null;
  searchMatch: boolean;
  discovery: boolean;
  productPageId: string | null;
  paused: boolean;
}

export interface GroupCreate {
  name: string;
  defaultBidAmount: Money;
  cpaGoal: Money | null;
  automatedKeywordsOptIn: boolean;
  keywords: { text: string; matchType: MatchType; bidAmount: null }[];
  negativeKeywords: { text: string; matchType: MatchType }[];
}

export interface CampaignCreate {
  adChannelType: 'SEARCH';
  adamId: string;
  countriesOrRegions: string[];
  name: string;
  status: 'ENABLED' | 'PAUSED';
  supplySources: ['APPSTORE_SEARCH_RESULTS'];
  billingEvent: 'TAPS';
  dailyBudgetAmount: Money;
  creativeSets: [];
  ruleIds: [];
  groups: GroupCreate[];
}

export interface CreateBody {
  adamId: string;
  campaigns: CampaignCreate[];
  discovery: { name: string; countriesOrRegions: string[]; dailyBudgetAmount: Money; defaultBidAmount: Money; cpaGoal: Money | null } | null;
  productPageId: string | null;
}

/** The ad group names of the match types (the contract's example names them so). */
export const GROUP_NAMES: Record<MatchType, string> = { EXACT: 'Exact', BROAD: 'Broad' };

/** The body of `PUT /api/asa/campaigns/asa/all`. */
export function createBody(
  plan: readonly PlannedCampaign[],
  edits: NameEdits,
  settings: CreationSettings,
  { adamId, currency, discoveryName }: { adamId: string; currency: string; discoveryName: string },
): CreateBody {
  const money = (amount: string): Money => ({ amount, currency });
  const cpaGoal = settings.cpaGoal === null ? null : money(settings.cpaGoal);
  const campaigns = plan.map((campaign): CampaignCreate => {
    const types = matchTypesOf(campaign.match);
    return {
      adChannelType: 'SEARCH',
      adamId,
      countriesOrRegions: settings.countries,
      name: nameOf(campaign, edits).trim(),
      status: settings.paused ? 'PAUSED' : 'ENABLED',
      supplySources: ['APPSTORE_SEARCH_RESULTS'],
      billingEvent: 'TAPS',
      dailyBudgetAmount: money(settings.dailyBudget),
      creativeSets: [],
      ruleIds: [],
      groups: types.map((matchType) => ({
        name: GROUP_NAMES[matchType],
        defaultBidAmount: money(settings.defaultBid),
        cpaGoal,
        automatedKeywordsOptIn: settings.searchMatch,
        keywords: campaign.keywords.map((text) => ({ text, matchType, bidAmount: null })),
        // The broad ad group beside an exact one does not bid on the exact one's queries.
        negativeKeywords: matchType === 'BROAD' && types.includes('EXACT') ? campaign.keywords.map((text) => ({ text, matchType: 'EXACT' as const })) : [],
      })),
    };
  });
  return {
    adamId,
    campaigns,
    discovery: settings.discovery
      ? { name: discoveryName, countriesOrRegions: settings.countries, dailyBudgetAmount: money(settings.dailyBudget), defaultBidAmount: money(settings.defaultBid), cpaGoal }
      : null,
    productPageId: settings.productPageId,
  };
}

/** How many campaigns the plan creates, the discovery campaign included. */
export const campaignTotal = (plan: readonly PlannedCampaign[], discovery: boolean): number => plan.length + (discovery ? 1 : 0);

/** The settings form's field of a creation body's field error (null: none shows it). */
export function settingsFieldOf(field: string): 'countries' | 'dailyBudget' | 'defaultBid' | 'cpaGoal' | 'productPageId' | null {
  const path = field.replace(/\[(\d+)\]/g, '.$1');
  if (/(^|\.)countriesOrRegions(\.|$)/.test(path)) return 'countries';
  if (/(^|\.)dailyBudgetAmount(\.|$)/.test(path)) return 'dailyBudget';
  if (/(^|\.)defaultBidAmount(\.|$)|(^|\.)bidAmount(\.|$)/.test(path)) return 'defaultBid';
  if (/(^|\.)cpaGoal(\.|$)/.test(path)) return 'cpaGoal';
  if (path === 'productPageId') return 'productPageId';
  return null;
}
