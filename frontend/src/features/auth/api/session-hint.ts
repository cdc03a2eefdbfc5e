/**
 * A sign that this browser holds a session, kept in local storage: set whenever a user
 * becomes the session (sign-in, sign-up, a successful relogin), dropped on sign-out and when
 * the server answers the relogin with 401. The session cookie itself is HttpOnly, so a
 * script cannot see it; without this sign, every signed-out page load would ask
 * GET /api/auth/relogin and the browser would log its expected 401 as a console error.
 *
 * The start-up relogin (docs/product.md#4-sign-in-account-and-session) runs only when the sign is
 * present. A browser whose storage was cleared while its cookie lives on signs in once more; a sign
 * whose session has expired costs one 401, after which the sign is gone.
 */
const KEY = 'searchdeck:session';

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    // Storage denied (a privacy setting): always try the relogin, as before.
    return null;
  }
}

/** Whether this browser may hold a session (true when storage cannot be read). */
export function hasSessionHint(): boolean {
  const store = storage();
  return store === null || store.getItem(KEY) === '1';
}

/** Notes that this browser now holds a session (or, with false, that it holds none). */
export function setSessionHint(signedIn: boolean): void {
  const store = storage();
  if (!store) return;
  try {
    if (signedIn) store.setItem(KEY, '1');
    else store.removeItem(KEY);
  } catch {
    // A full or denied storage only costs the next load a relogin attempt.
  }
}
