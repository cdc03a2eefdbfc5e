/**
 * The public face of the activity log feature (notifications of every change,
 * docs/product.md#2-activity-log, docs/product.md#3-notification,
 * docs/product.md#4-notifications). Its screen is in `screens.ts`, which only the route
 * table imports, lazily; the sidebar shows the unread count with `UnreadBadge` (or
 * `UnreadIndicator` when collapsed).
 */
export { UnreadBadge, UnreadIndicator } from './components/UnreadBadge';
export { activityKeys } from './api/keys';
