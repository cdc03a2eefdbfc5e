/** The tabs of Account Settings' sections, above every settings page (app/settings-nav.ts). */
import { Tabs } from '@mantine/core';
import { useLocation, useNavigate } from 'react-router';
import type { Role } from '@/features/auth';
import { t } from '@/i18n';
import { appRoutes } from '../routes';
import { SETTINGS_PREFIX, visibleSettingsItems } from '../settings-nav';

export function SettingsNav({ role }: { role: Role }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  if (!pathname.startsWith(SETTINGS_PREFIX)) return null;
  const items = visibleSettingsItems(appRoutes, role);
  return (
    <Tabs value={pathname} onChange={(path) => path && void navigate(path)} mb="lg" aria-label={t('settingsNav.label')}>
      <Tabs.List>
        {items.map((item) => (
          <Tabs.Tab key={item.path} value={item.path}>
            {t(item.label)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
