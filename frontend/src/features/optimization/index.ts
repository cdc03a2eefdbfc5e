/**
 * The public face of the optimisation feature (the drill-down tables). Its screens are in
 * `screens.ts`, loaded lazily by the route table.
 */
export { adGroupPath, campaignPath, campaignsPath, type Tab } from './paths';
/** Days as the date pickers type and show them (`DD/MM/YYYY` ⇄ `YYYY-MM-DD`). */
export { addDays, displayDay, parseDisplayDay } from './date-range';
/** What the campaign-groups route asks before its screen renders (the app frame calls it). */
export { prefetchOrgsScreen } from './prefetch';
