/**
 * Sidebar entries in the order of docs/product.md#2-layout. An entry shows once its route renders a
 * screen in the route table, and only for roles the route allows (readers lose Keyword Suggester
 * and Automated Rules that way). Activity Log carries the unread count.
 */
import {
  IconBulb,
  IconChartBar,
  IconFlask,
  IconHistory,
  IconRobot,
  IconSettings,
  type Icon,
} from '@tabler/icons-react';
import type { Role } from '@/features/auth';
import type { MessageKey } from '@/i18n';
import type { AppRoute } from './route-types';

export interface NavItem {
  label: MessageKey;
  path: string;
  /** The entry is active on every path under this one. */
  section: string;
  icon: Icon;
  /** A count shown on the entry: the activity log's unread notifications. */
  badge?: 'unread';
}

export const NAV_ITEMS: readonly NavItem[] = [
  { label: 'nav.optimization', path: '/optimization', section: '/optimization', icon: IconChartBar },
  { label: 'nav.keywordSuggester', path: '/keyword-suggester', section: '/keyword-suggester', icon: IconBulb },
  { label: 'nav.campaignLab', path: '/campaign-lab', section: '/campaign-lab', icon: IconFlask },
  { label: 'nav.autoRules', path: '/auto-rules', section: '/auto-rules', icon: IconRobot },
  { label: 'nav.activityLog', path: '/activity-log', section: '/activity-log', icon: IconHistory, badge: 'unread' },
  { label: 'nav.settings', path: '/settings/general', section: '/settings', icon: IconSettings },
];

export const HELP_CENTER_URL = 'https://help.searchdeck.app';

export function visibleNavItems(routes: readonly AppRoute[], role: Role): NavItem[] {
  return NAV_ITEMS.filter((item) => {
    const route = routes.find((r) => r.path === item.path && r.element !== undefined);
    return route !== undefined && (!route.roles || route.roles.includes(role));
  });
}

/**
 * The Settings sections, in the order of docs/product.md#2-url-paths-and-access, shown above each
 * settings screen.
 */
export interface SettingsItem {
  label: MessageKey;
  path: string;
  /** Other paths the section is active on (a provider's page under Integrations). */
  also?: readonly string[];
}

export const SETTINGS_ITEMS: readonly SettingsItem[] = [
  { label: 'settingsNav.general', path: '/settings/general' },
  { label: 'settingsNav.team', path: '/settings/team' },
  { label: 'settingsNav.integrations', path: '/settings/integrations', also: ['/settings/integration'] },
  { label: 'settingsNav.benchmarks', path: '/settings/benchmarks' },
  { label: 'settingsNav.subscription', path: '/settings/subscription' },
  { label: 'settingsNav.password', path: '/settings/password' },
];

/** The sections whose route renders a screen and allows `role` (Team: owners and admins). */
export function visibleSettingsItems(routes: readonly AppRoute[], role: Role): SettingsItem[] {
  return SETTINGS_ITEMS.filter((item) => {
    const route = routes.find((r) => r.path === item.path && r.element !== undefined);
    return route !== undefined && (!route.roles || route.roles.includes(role));
  });
}

/** Whether settings section `item` is the one `pathname` shows. */
export function isActiveSection(item: SettingsItem, pathname: string): boolean {
  return pathname === item.path || pathname.startsWith(`${item.path}/`) || (item.also?.includes(pathname) ?? false);
}

export function isActive(item: NavItem, pathname: string): boolean {
  return pathname === item.section || pathname.startsWith(`${item.section}/`);
}
