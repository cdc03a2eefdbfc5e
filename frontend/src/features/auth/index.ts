/** The public face of the auth feature for the app shell and other features. */
export { authKeys } from './api/keys';
export { useSession } from './api/relogin';
export { hasConnectedAccount, ROLES, userResultSchema, type Role, type User } from './api/user';
export { AuthScreen } from './components/AuthScreen';
export { PasswordScreen } from './components/PasswordScreen';
export { useSignOut } from './hooks/useSignOut';
