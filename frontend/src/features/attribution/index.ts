/**
 * The public face of the attribution feature (integrations with attribution and revenue
 * providers, their events and event settings; docs/api/attribution.md). Its screens are in
 * `screens.ts`, loaded lazily; nothing else is shared yet.
 */
export { attributionKeys } from './api/keys';
