/** Header and collapsible sidebar around a signed-in page (spec §2 Layout). */
import { AppShell } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import type { ReactNode } from 'react';
import type { User } from '@/features/auth';
import { Header } from './Header';
import { Sidebar } from './Sidebar';

export const SIDEBAR_STORAGE_KEY = 'searchdeck:sidebar-opened';
const SIDEBAR_WIDTH = { opened: 240, collapsed: 64 };

interface AppLayoutProps {
  user: User;
  title: string;
  children: ReactNode;
}

export function AppLayout({ user, title, children }: AppLayoutProps) {
  const [opened, setOpened] = useLocalStorage({
    key: SIDEBAR_STORAGE_KEY,
    defaultValue: true,
    getInitialValueInEffect: false,
  });
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: opened ? SIDEBAR_WIDTH.opened : SIDEBAR_WIDTH.collapsed, breakpoint: 0 }}
      padding="lg"
    >
      <AppShell.Header>
        <Header title={title} />
      </AppShell.Header>
      <AppShell.Navbar>
        <Sidebar role={user.permission} opened={opened} onToggle={() => setOpened(!opened)} />
      </AppShell.Navbar>
      <AppShell.Main>{children}</AppShell.Main>
    </AppShell>
  );
}
