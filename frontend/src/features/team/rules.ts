/**
 * The role rules of docs/api/team.md as the screen applies them before asking the server
 * (which enforces them anyway): only an owner makes or touches an owner, and the workspace
 * keeps at least one owner. Each check answers null when allowed, else the message key of
 * why not, which the screen shows on the disabled control.
 */
import type { Role } from '@/features/auth';
import { t, type MessageKey } from '@/i18n';
import { ApiError, errorMessage } from '@/lib/api-error';
import type { Member } from './api/get-team';

export const ROLE_ORDER: readonly Role[] = ['owner', 'admin', 'writer', 'reader'];

/** The roles `caller` may give (an admin cannot make an owner). */
export function assignableRoles(caller: Role): Role[] {
  return ROLE_ORDER.filter((r) => r !== 'owner' || caller === 'owner');
}

export function ownerCount(members: readonly Pick<Member, 'role'>[]): number {
  return members.filter((m) => m.role === 'owner').length;
}

/** Why `caller` may not touch `targets` at all (an admin and an owner), or null. */
function touchRefused(caller: Role, targets: readonly Pick<Member, 'role'>[]): MessageKey | null {
  if (caller !== 'owner' && targets.some((m) => m.role === 'owner')) return 'team.rule.adminVsOwner';
  return null;
}

/** Why `caller` may not give `role` to every one of `targets` (of `members`), or null. */
export function roleChangeRefused(
  caller: Role,
  targets: readonly Pick<Member, 'id' | 'role'>[],
  role: Role,
  members: readonly Pick<Member, 'id' | 'role'>[],
): MessageKey | null {
  const touch = touchRefused(caller, targets);
  if (touch) return touch;
  if (role === 'owner' && caller !== 'owner') return 'team.rule.onlyOwnerMakesOwner';
  if (role !== 'owner') {
    const ids = new Set(targets.map((m) => m.id));
    const left = members.filter((m) => m.role === 'owner' && !ids.has(m.id)).length;
    if (left === 0 && targets.some((m) => m.role === 'owner')) return 'team.rule.lastOwner';
  }
  return null;
}

/** Why `caller` may not remove every one of `targets` (of `members`), or null. */
export function removalRefused(
  caller: Role,
  targets: readonly Pick<Member, 'id' | 'role'>[],
  members: readonly Pick<Member, 'id' | 'role'>[],
): MessageKey | null {
  const touch = touchRefused(caller, targets);
  if (touch) return touch;
  const ids = new Set(targets.map((m) => m.id));
  const left = members.filter((m) => m.role === 'owner' && !ids.has(m.id)).length;
  if (left === 0 && targets.some((m) => m.role === 'owner')) return 'team.rule.lastOwner';
  return null;
}

/** Why `caller` may not invite with `role`, or null. */
export function inviteRefused(caller: Role, role: Role): MessageKey | null {
  return role === 'owner' && caller !== 'owner' ? 'team.rule.onlyOwnerMakesOwner' : null;
}

/** The words of a server refusal: its codes (LAST_OWNER, ALREADY_A_MEMBER) in full sentences. */
export function teamErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.message === 'LAST_OWNER') return t('team.rule.lastOwner');
    if (error.message === 'ALREADY_A_MEMBER') return t('team.error.alreadyMember');
    const field = error.errors[0];
    if (error.status === 400 && field) return field.message;
  }
  return errorMessage(error);
}

/** "Active" state of a member: their last request (Unix seconds), or null for none. */
export function lastActiveMs(member: Pick<Member, 'lastActive'>): number | null {
  return typeof member.lastActive === 'number' ? member.lastActive * 1000 : null;
}
