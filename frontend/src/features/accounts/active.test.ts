import type { Account } from './api/account';
import { activeStorageKey, readActive, resolveActive, switchAccount, writeActive } from './active';

function account(id: string, orgIds: string[] = []): Account {
  return {
    _id: id,
    name: `Account ${id}`,
    method: 'oauth',
    clientId: 'c',
    teamId: null,
    keyId: null,
    publicKey: null,
    appleUserId: '1',
    acls: orgIds.map((orgId) => ({
      orgId,
      displayName: `Org ${orgId}`,
      currency: 'USD',
      timeZone: 'UTC',
      permission: 'API Account Manager',
      selected: true,
    })),
    createdAt: '2026-01-01T00:00:00Z',
    lastSyncedAt: null,
    nextSyncAt: '2026-01-01T03:00:00Z',
  };
}

describe('active account persistence (spec §4)', () => {
  beforeEach(() => window.localStorage.clear());

  it('stores the choice per user email', () => {
    writeActive(window.localStorage, 'Ann@Example.com', { accountId: 'a', orgId: '7' });
    writeActive(window.localStorage, 'bob@example.com', { accountId: 'b', orgId: null });
    expect(readActive(window.localStorage, 'ann@example.com')).toEqual({ accountId: 'a', orgId: '7' });
    expect(readActive(window.localStorage, 'bob@example.com')).toEqual({ accountId: 'b', orgId: null });
    expect(activeStorageKey('Ann@Example.com')).toBe('searchdeck:active-account:ann@example.com');
    writeActive(window.localStorage, 'bob@example.com', null);
    expect(readActive(window.localStorage, 'bob@example.com')).toBeNull();
  });

  it('ignores unreadable stored values', () => {
    window.localStorage.setItem(activeStorageKey('ann@example.com'), '{not json');
    expect(readActive(window.localStorage, 'ann@example.com')).toBeNull();
    window.localStorage.setItem(activeStorageKey('ann@example.com'), JSON.stringify({ orgId: '3' }));
    expect(readActive(window.localStorage, 'ann@example.com')).toBeNull();
  });

  it('restores the stored account and org while they still exist', () => {
    const accounts = [account('a', ['1']), account('b', ['2', '3'])];
    expect(resolveActive({ accountId: 'b', orgId: '3' }, accounts)).toEqual({ accountId: 'b', orgId: '3' });
    expect(resolveActive({ accountId: 'b', orgId: '9' }, accounts)).toEqual({ accountId: 'b', orgId: null });
    expect(resolveActive({ accountId: 'gone', orgId: '3' }, accounts)).toEqual({ accountId: 'a', orgId: null });
    expect(resolveActive(null, accounts)).toEqual({ accountId: 'a', orgId: null });
    expect(resolveActive(null, [])).toBeNull();
  });

  it('clears the org when switching accounts', () => {
    expect(switchAccount({ accountId: 'a', orgId: '1' }, 'b')).toEqual({ accountId: 'b', orgId: null });
    expect(switchAccount({ accountId: 'a', orgId: '1' }, 'a')).toEqual({ accountId: 'a', orgId: '1' });
    expect(switchAccount(null, 'a')).toEqual({ accountId: 'a', orgId: null });
  });
});
