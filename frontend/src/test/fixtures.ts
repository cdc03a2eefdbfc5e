/**
 * Test data shaped like the server's: typed by the features' types, which come from the
 * schemas generated from the OpenAPI document, and checked against the document again when a
 * mock answers with it (src/test/fetch-mock.ts).
 */
import type { Account } from '@/features/accounts';
import type { Role, User } from '@/features/auth';
import type { PlanAnswer } from '@/features/plans';
import type { Task } from '@/features/tasks';
import { NOTHING_YET } from '@/features/tasks/creation-progress';
import type { BulkEditProgress, Connected, CreationProgress, EventItem, EventNameItem, InstallCheck, IntegrationItem } from '@/api/generated/types.gen';

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: '1',
    email: 'ann@example.com',
    fullName: 'Ann Lee',
    permission: 'owner',
    workspaceId: '1',
    alternativeInvoiceEmail: null,
    lastMonthSpend: 0,
    nextPurchaseId: null,
    previousStatus: null,
    paymentFailed: false,
    purchase: null,
    connects: { appStore: [], mmpEvent: {} },
    ...overrides,
  };
}

/** A workspace's purchase (the document's `PurchaseItem`): the free Pro plan unless told. */
export function makePurchase(overrides: Partial<NonNullable<User['purchase']>> = {}): NonNullable<User['purchase']> {
  return {
    id: 'p1',
    name: 'pro_free',
    free: true,
    full: false,
    trial: false,
    organization: false,
    paymentFailed: false,
    suggester: true,
    usedTrial: false,
    usedPreTrial: false,
    usedGrowthTrial: false,
    startedAt: 1764000000,
    offAccountTime: null,
    ...overrides,
  };
}

export const userWithRole = (permission: Role) => makeUser({ permission });

export function makeTask(overrides: Partial<Task> = {}): Task {
  return {
    id: '1',
    kind: 'collect-keywords',
    message: 'Collecting results',
    step: 1,
    totalSteps: 3,
    finish: false,
    error: null,
    percent: 25,
    details: {},
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
    ...overrides,
    // Every message the task has shown: by default only the current one.
    phases: overrides.phases ?? [overrides.message ?? 'Collecting results'],
  };
}

/** A creation's or copy's task details (the document's CreationProgress) with these members. */
export function creationDetails(over: Partial<CreationProgress> = {}): CreationProgress {
  return { ...NOTHING_YET, ...over };
}

/** A bulk edit's task details (the document's BulkEditProgress) with these members. */
export function bulkDetails(over: Partial<BulkEditProgress> = {}): BulkEditProgress {
  const counts = { applied: 0, refused: 0, skipped: 0, ...over };
  const total = counts.applied + counts.refused + counts.skipped;
  return { level: 'KEYWORD', field: 'cptBid', operation: 'Lower the bid of 7 keywords', total, done: total, items: [], errors: [], ...counts };
}

export function makeAccount(id: string, name: string, orgs: { orgId: number | string; displayName: string }[] = [], overrides: Partial<Account> = {}): Account {
  return {
    _id: id,
    name,
    method: 'oauth',
    clientId: 'SEARCHADS.client',
    teamId: null,
    keyId: null,
    publicKey: null,
    appleUserId: '1',
    acls: orgs.map((o) => ({
      ...o,
      // Ids are strings on the wire (lib/ids); the fixtures take either.
      orgId: String(o.orgId),
      currency: 'USD',
      timeZone: 'America/New_York',
      permission: 'API Account Manager',
      selected: true,
    })),
    createdAt: '2026-01-01T00:00:00Z',
    lastSyncedAt: null,
    nextSyncAt: '2026-01-01T03:00:00Z',
    ...overrides,
  };
}

/** `plan/current` of a free workspace without a trial: no banner, no modal. */
export function makePlanAnswer(overrides: Partial<PlanAnswer> = {}): PlanAnswer {
  return {
    plan: 'pro_free',
    freeTrialStatus: 'NoTrial',
    previousStatus: null,
    lastMonthSpend: '0.00',
    spendThreshold: '10000',
    offAccountTime: null,
    daysLeft: null,
    canUpgrade: true,
    limits: { apps: 5, developers: 2, campaigns: 100, keywordGroups: 100, rules: 10, rulesCampaigns: 20 },
    usage: { apps: 0, developers: 0, campaigns: 0, keywordGroups: null, rules: 0, rulesCampaigns: 0 },
    banner: null,
    modal: null,
    ...overrides,
  };
}

/** A page of `accountsActions/all` (the document's `NotificationPage`): none unless told. */
export function makeNotificationPage(items: unknown[] = [], unread = 0) {
  const counts = { all: items.length, auto_rules: 0, goal_optimization: 0, manual_change: 0, quick_start: 0, team: 0 };
  return { items, total: items.length, unread, counts };
}

/** A campaign of the pickers' `asa/campaigns/list` (the document's `CampaignListItem`). */
export function makeCampaignListItem(campaignId: string, campaignName: string, overrides: Record<string, unknown> = {}) {
  return { campaignId, campaignName, accountId: 'a1', orgId: '42', status: 'ENABLED', servingStatus: 'RUNNING', displayStatus: 'RUNNING', deleted: false, hidden: false, adamId: null, ...overrides };
}

/**
 * An answer of `POST asa/reports` (the document's `ReportResult`) holding `items`, each row
 * `deleted: false` unless it says otherwise.
 */
export function makeReport(items: Record<string, unknown>[] | unknown[], overrides: Record<string, unknown> = {}) {
  return {
    items: (items as Record<string, unknown>[]).map((row) => ({ deleted: false, ...row })),
    total: items.length,
    totals: {},
    currency: 'USD',
    lastSyncedAt: '2026-11-19T10:00:00Z',
    locked: [],
    lockedGroups: [],
    hidden: [],
    page: 1,
    pageSize: 50,
    syncing: false,
    ...overrides,
  };
}

const PROVIDERS: [string, string, string][] = [
  ['appsflyer', 'AppsFlyer', 'attribution'],
  ['adjust', 'Adjust', 'attribution'],
  ['branch', 'Branch', 'attribution'],
  ['singular', 'Singular', 'attribution'],
  ['kochava', 'Kochava', 'attribution'],
  ['tenjin', 'Tenjin', 'attribution'],
  ['revenuecat', 'RevenueCat', 'revenue'],
  ['custom', 'Custom tracking server', 'custom'],
];

/** One provider of `GET attribution/integrations`, not connected unless it says otherwise. */
export function makeIntegration(provider: string, overrides: Partial<IntegrationItem> = {}): IntegrationItem {
  const [, title, kind] = PROVIDERS.find(([p]) => p === provider) ?? [provider, provider, 'custom'];
  return { provider, title, kind, connected: false, status: null, lastEventAt: null, eventsLastDay: 0, connectedAt: null, setup: null, pullAvailable: provider === 'appsflyer', pull: null, ...overrides };
}

/**
 * An integration's install check (docs/api/attribution.md "Install check") over 26 November to
 * 2 December 2026: by default 820 of Apple's 1 000 installs tracked, nothing found; a finding
 * comes with the server's sentence.
 */
export function makeInstallCheck(overrides: Partial<InstallCheck> = {}): InstallCheck {
  const check: InstallCheck = { from: '2026-11-26', to: '2026-12-02', trackedInstalls: 820, trackedWithKeyword: 610, appleInstalls: 1000, rate: 0.82, finding: null, message: null, ...overrides };
  if (overrides.rate === undefined) check.rate = check.appleInstalls > 0 ? check.trackedInstalls / check.appleInstalls : null;
  return check;
}

/** Every provider the list answers, in its order, with `overrides` per provider. */
export function makeIntegrations(overrides: Record<string, Partial<IntegrationItem>> = {}): IntegrationItem[] {
  return PROVIDERS.map(([provider]) => makeIntegration(provider, overrides[provider]));
}

/** The answer of Connect or Rotate: the integration connected and its URL with the token. */
export function makeConnected(provider: string, token = 'tok_abcdefghijklmnopqrstuvwxyz0123456789', secret: string | null = null): Connected {
  const method = provider === 'adjust' ? 'GET' : 'POST';
  const url = `http://127.0.0.1:8080/api/attribution/postbacks/${provider}/${token}`;
  const steps = ['Open the dashboard', 'Paste the URL'];
  return {
    item: makeIntegration(provider, { connected: true, status: 'Loading data', connectedAt: 1764763200000, setup: { method, url: `…/${provider}/…${token.slice(-4)}`, steps } }),
    setup: { method, url, steps },
    secret,
  };
}

/** One event of `GET attribution/integrations/{provider}/events`. */
export function makeAttributionEvent(dedupeId: string, overrides: Partial<EventItem> = {}): EventItem {
  return {
    dedupeId,
    kind: 'install',
    eventName: 'install',
    eventAt: 1764763200000,
    installAt: 1764763200000,
    installDay: '2026-12-03',
    receivedAt: 1764763200000,
    test: false,
    campaignId: '542370539',
    adGroupId: '542317095',
    keywordId: '87675432',
    adId: null,
    adamId: '123456789',
    claimType: 'Click',
    country: 'US',
    revenue: null,
    currency: null,
    ...overrides,
  };
}

/** One name of `GET mmpEventsSettings/allNames`. */
export function makeEventName(provider: string, eventName: string, overrides: Partial<EventNameItem> = {}): EventNameItem {
  return {
    provider,
    eventName,
    adamId: '123456789',
    countsAs: { trial: false, purchase: false, revenue: false },
    events: 3,
    firstSeenAt: 1764763200000,
    lastSeenAt: 1764763200000,
    ...overrides,
  };
}
