/** Header and collapsible sidebar around a signed-in page (docs/product.md#2-layout). */
import { AppShell, Skeleton } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { Suspense, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import type { User } from '@/features/auth';
import { PlanBanner, PlanPrompts, UpgradeButton } from '@/features/plans';
import { WorkspaceSwitcher } from '@/features/team';
import { AccountSelector } from './account-selector';
import { Header } from './Header';
import { SETTINGS_SECTION, SettingsNav } from './SettingsNav';
import { Sidebar } from './Sidebar';

export const SIDEBAR_STORAGE_KEY = 'searchdeck:sidebar-opened';
const SIDEBAR_WIDTH = { opened: 240, collapsed: 64 };

interface AppLayoutProps {
  user: User;
  title: string;
  /** The oauth route disables the main menu (docs/product.md#2-layout). */
  menuDisabled?: boolean;
  children: ReactNode;
}

export function AppLayout({ user, title, menuDisabled = false, children }: AppLayoutProps) {
  const [opened, setOpened] = useLocalStorage({
    key: SIDEBAR_STORAGE_KEY,
    defaultValue: true,
    getInitialValueInEffect: false,
  });
  const { pathname } = useLocation();
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: opened ? SIDEBAR_WIDTH.opened : SIDEBAR_WIDTH.collapsed, breakpoint: 0 }}
      padding="lg"
    >
      <AppShell.Header>
        <Header
          title={title}
          workspaceSwitcher={<WorkspaceSwitcher />}
          accountSelector={
            <Suspense fallback={<Skeleton w={200} h={40} radius="md" />}>
              <AccountSelector />
            </Suspense>
          }
          upgradeButton={<UpgradeButton />}
        />
      </AppShell.Header>
      <AppShell.Navbar>
        <Sidebar role={user.permission} opened={opened} menuDisabled={menuDisabled} onToggle={() => setOpened(!opened)} />
      </AppShell.Navbar>
      <AppShell.Main>
        {/* docs/product.md#2-layout, docs/product.md#4-banners: the top banner, the settings
            sections, and the plan's modals. */}
        <PlanBanner />
        {pathname.startsWith(SETTINGS_SECTION) && <SettingsNav role={user.permission} />}
        {children}
        <PlanPrompts />
      </AppShell.Main>
    </AppShell>
  );
}
