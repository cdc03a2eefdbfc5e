/** The public face of the users feature. */
export { GeneralSettings } from './components/GeneralSettings';
export { roleLabel } from './role-label';
