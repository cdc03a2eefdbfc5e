import { ApiError } from '@/lib/api-error';
import { assignableRoles, inviteRefused, ownerCount, removalRefused, roleChangeRefused, teamErrorMessage } from './rules';

const ann = { id: 'ann', role: 'owner' as const };
const bob = { id: 'bob', role: 'owner' as const };
const cat = { id: 'cat', role: 'admin' as const };
const dan = { id: 'dan', role: 'reader' as const };

describe('team rules', () => {
  it('offers the owner role to owners only', () => {
    expect(assignableRoles('owner')).toEqual(['owner', 'admin', 'writer', 'reader']);
    expect(assignableRoles('admin')).toEqual(['admin', 'writer', 'reader']);
    expect(inviteRefused('admin', 'owner')).toBe('team.rule.onlyOwnerMakesOwner');
    expect(inviteRefused('admin', 'writer')).toBeNull();
    expect(inviteRefused('owner', 'owner')).toBeNull();
  });

  it('keeps admins away from owners', () => {
    const members = [ann, bob, cat, dan];
    expect(roleChangeRefused('admin', [ann], 'reader', members)).toBe('team.rule.adminVsOwner');
    expect(removalRefused('admin', [ann], members)).toBe('team.rule.adminVsOwner');
    expect(removalRefused('admin', [dan, ann], members)).toBe('team.rule.adminVsOwner');
    expect(roleChangeRefused('admin', [dan], 'owner', members)).toBe('team.rule.onlyOwnerMakesOwner');
    expect(roleChangeRefused('admin', [dan], 'admin', members)).toBeNull();
    expect(removalRefused('admin', [dan, cat], members)).toBeNull();
  });

  it('keeps one owner: the last cannot be demoted or removed, one of two can', () => {
    expect(ownerCount([ann, bob, cat])).toBe(2);
    expect(roleChangeRefused('owner', [ann], 'admin', [ann, cat])).toBe('team.rule.lastOwner');
    expect(removalRefused('owner', [ann], [ann, cat])).toBe('team.rule.lastOwner');
    expect(roleChangeRefused('owner', [ann], 'owner', [ann, cat])).toBeNull();
    expect(roleChangeRefused('owner', [ann], 'admin', [ann, bob, cat])).toBeNull();
    expect(removalRefused('owner', [ann], [ann, bob])).toBeNull();
    // Both owners of a bulk change at once leave none.
    expect(roleChangeRefused('owner', [ann, bob], 'reader', [ann, bob, cat])).toBe('team.rule.lastOwner');
    expect(removalRefused('owner', [ann, bob, dan], [ann, bob, dan])).toBe('team.rule.lastOwner');
  });

  it('words the server codes and field errors', () => {
    expect(teamErrorMessage(new ApiError(409, 'LAST_OWNER'))).toBe('The workspace needs an owner: make someone else an owner first');
    expect(teamErrorMessage(new ApiError(409, 'ALREADY_A_MEMBER'))).toBe('This person is already a member of the workspace');
    expect(teamErrorMessage(new ApiError(403, 'An admin cannot change an owner'))).toBe('An admin cannot change an owner');
    expect(teamErrorMessage(new ApiError(400, 'Validation failed', [{ field: 'code', message: 'This invitation has expired' }]))).toBe('This invitation has expired');
    expect(teamErrorMessage(new Error('x'))).toBe('Bad Gateway');
  });
});
