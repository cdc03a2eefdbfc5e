/**
 * The public face of the auth feature for the app shell and other features. Its screens are
 * in `screens.ts`, which only the route table imports, lazily.
 */
export { authKeys } from './api/keys';
export { sessionQuery, useSession } from './api/relogin';
export { hasSessionHint, setSessionHint } from './api/session-hint';
export { ROLES, roleSchema, userResultSchema, type Role, type User } from './api/user';
export { roleLabel } from './role-label';
export { useSignOut } from './hooks/useSignOut';
export { SessionEndWatcher } from './components/SessionEndWatcher';
