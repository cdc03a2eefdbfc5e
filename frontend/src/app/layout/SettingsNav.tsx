/**
 * The sections of Account Settings (General, Team, …) as tabs above each settings screen,
 * from `SETTINGS_ITEMS`: a section shows once its route renders a screen and only for the
 * roles its route allows (Team: owners and admins).
 */
import { Tabs } from '@mantine/core';
import { useLocation, useNavigate } from 'react-router';
import type { Role } from '@/features/auth';
import { t } from '@/i18n';
import { isActiveSection, visibleSettingsItems } from '../navigation';
import { appRoutes } from '../routes';

export const SETTINGS_SECTION = '/settings/';

export function SettingsNav({ role }: { role: Role }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const items = visibleSettingsItems(appRoutes, role);
  const active = items.find((item) => isActiveSection(item, pathname));
  return (
    <Tabs value={active?.path ?? null} onChange={(path) => path && void navigate(path)} mb="lg">
      <Tabs.List aria-label={t('settingsNav.label')}>
        {items.map((item) => (
          <Tabs.Tab key={item.path} value={item.path}>
            {t(item.label)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
