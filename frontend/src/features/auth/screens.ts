/** The auth feature's screens, loaded on demand by the route table (one chunk). */
export { AuthScreen } from './components/AuthScreen';
export { PasswordScreen } from './components/PasswordScreen';
