/**
 * The public face of the activity log feature (notifications of every change, spec §2, §3,
 * §4). Its screen is in `screens.ts`, which only the route table imports, lazily; the
 * sidebar shows the unread count with `UnreadBadge` (or `UnreadIndicator` when collapsed).
 */
export { UnreadBadge, UnreadIndicator } from './components/UnreadBadge';
export { activityKeys } from './api/keys';
