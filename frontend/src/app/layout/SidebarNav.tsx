/**
 * Navigation links of the sidebar, derived from the route table, plus the help center; the
 * Activity Log entry shows the unread notifications' count.
 */
import { NavLink, Tooltip } from '@mantine/core';
import { IconBook } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { UnreadBadge, UnreadIndicator } from '@/features/activity';
import type { Role } from '@/features/auth';
import { t } from '@/i18n';
import { HELP_CENTER_URL, isActive, visibleNavItems } from '../navigation';
import { appRoutes } from '../routes';

interface SidebarNavProps {
  role: Role;
  opened: boolean;
  /**
   * The main menu is disabled (the oauth route, docs/product.md#2-layout): entries show but do not
   * lead.
   */
  disabled?: boolean;
}

export function SidebarNav({ role, opened, disabled = false }: SidebarNavProps) {
  const { pathname } = useLocation();
  return (
    <nav aria-label="Main">
      {visibleNavItems(appRoutes, role).map((item) => {
        const ItemIcon = item.icon;
        const icon = <ItemIcon size={18} />;
        return (
          <Tooltip key={item.path} label={t(item.label)} position="right" disabled={opened}>
            <NavLink
              component={Link}
              to={item.path}
              label={opened ? t(item.label) : null}
              aria-label={t(item.label)}
              leftSection={item.badge === 'unread' && !opened ? <UnreadIndicator>{icon}</UnreadIndicator> : icon}
              rightSection={item.badge === 'unread' && opened ? <UnreadBadge /> : undefined}
              active={isActive(item, pathname)}
              disabled={disabled}
              aria-disabled={disabled || undefined}
              onClick={disabled ? (event) => event.preventDefault() : undefined}
            />
          </Tooltip>
        );
      })}
      <Tooltip label={t('nav.helpCenter')} position="right" disabled={opened}>
        <NavLink
          href={HELP_CENTER_URL}
          target="_blank"
          rel="noreferrer"
          label={opened ? t('nav.helpCenter') : null}
          aria-label={t('nav.helpCenter')}
          leftSection={<IconBook size={18} />}
        />
      </Tooltip>
    </nav>
  );
}
