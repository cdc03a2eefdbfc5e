/**
 * The sections of Account Settings (spec §2 settings children), in the spec's order. A
 * section shows once its route renders a screen in the route table, and only for roles the
 * route allows (Team and Subscription are owner and admin only).
 */
import type { Role } from '@/features/auth';
import type { MessageKey } from '@/i18n';
import type { AppRoute } from './route-types';

export interface SettingsItem {
  label: MessageKey;
  path: string;
}

export const SETTINGS_PREFIX = '/settings/';

export const SETTINGS_ITEMS: readonly SettingsItem[] = [
  { label: 'settingsNav.general', path: '/settings/general' },
  { label: 'settingsNav.team', path: '/settings/team' },
  { label: 'settingsNav.subscription', path: '/settings/subscription' },
  { label: 'settingsNav.password', path: '/settings/password' },
];

export function visibleSettingsItems(routes: readonly AppRoute[], role: Role): SettingsItem[] {
  return SETTINGS_ITEMS.filter((item) => {
    const route = routes.find((r) => r.path === item.path && r.element !== undefined);
    return route !== undefined && (!route.roles || route.roles.includes(role));
  });
}
