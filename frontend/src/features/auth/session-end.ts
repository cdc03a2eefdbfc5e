/**
 * A session the server ended without its owner signing out (docs/api/team.md, "A removed
 * member's sessions"): removed from a workspace, its next request answers 401 with "You were
 * removed from <workspace> by <name>" and `meta.reason` REMOVED_FROM_WORKSPACE. The web app
 * then signs the tab out and the sign-in screen says so (once), instead of a bare /login.
 */
import { ApiError } from '@/lib/api-error';

export const REMOVED_FROM_WORKSPACE = 'REMOVED_FROM_WORKSPACE';
const KEY = 'searchdeck:session-ended';

/** The server's words when `error` is a removal's 401, else null. */
export function removalMessage(error: unknown): string | null {
  return error instanceof ApiError && error.status === 401 && error.meta.reason === REMOVED_FROM_WORKSPACE ? error.message : null;
}

/** Keeps the removal's words for the sign-in screen of this tab. */
export function keepRemovalNote(message: string): void {
  try {
    window.sessionStorage.setItem(KEY, message);
  } catch {
    // Storage denied: the sign-in screen shows no note, as before.
  }
}

/** The removal's words kept for the sign-in screen, read once. */
export function takeRemovalNote(): string | null {
  try {
    const note = window.sessionStorage.getItem(KEY);
    window.sessionStorage.removeItem(KEY);
    return note;
  } catch {
    return null;
  }
}
