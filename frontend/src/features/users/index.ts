/** The public face of the users feature. Its screens are in `screens.ts`, loaded lazily. */
export { roleLabel } from './role-label';
