/** Test data shaped like the server's. */
import type { Account } from '@/features/accounts';
import type { Role, User } from '@/features/auth';
import type { PlanAnswer } from '@/features/plans';
import type { Task } from '@/features/tasks';

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: 1,
    email: 'ann@example.com',
    fullName: 'Ann Lee',
    permission: 'owner',
    workspaceId: 1,
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

export const userWithRole = (permission: Role) => makeUser({ permission });

export function makeTask(overrides: Partial<Task> = {}): Task {
  return {
    id: 1,
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
  };
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
