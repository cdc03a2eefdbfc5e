/**
 * The unread count on the sidebar's Activity Log entry (a badge beside the label, or a dot
 * with the count on the icon when the sidebar is collapsed); nothing while all are read.
 */
import { Badge, Indicator } from '@mantine/core';
import type { ReactNode } from 'react';
import { tn } from '@/i18n';
import { formatNumber } from '@/lib/format';
import { useUnreadCount } from '../api/unread';

/** Counts above this show as `99+`. */
const MAX_SHOWN = 99;

const shown = (count: number) => (count > MAX_SHOWN ? `${MAX_SHOWN}+` : formatNumber(count, 0));

export function UnreadBadge() {
  const { data: count = 0 } = useUnreadCount();
  if (count <= 0) return null;
  return (
    <Badge size="sm" color="red" variant="filled" aria-label={tn('activity.unreadCount', count, formatNumber(count, 0))} data-testid="unread-badge">
      {shown(count)}
    </Badge>
  );
}

export function UnreadIndicator({ children }: { children: ReactNode }) {
  const { data: count = 0 } = useUnreadCount();
  return (
    <Indicator label={shown(count)} size={16} color="red" disabled={count <= 0} aria-label={count > 0 ? tn('activity.unreadCount', count, formatNumber(count, 0)) : undefined}>
      {children}
    </Indicator>
  );
}
