/**
 * The header: the page title, or breadcrumbs once a page provides them, the account
 * selector, and the upgrade button (features/plans: owners and admins, hidden on the
 * subscription page).
 */
import { Group, Title } from '@mantine/core';
import type { ReactNode } from 'react';

interface HeaderProps {
  title: string;
  breadcrumbs?: ReactNode;
  accountSelector?: ReactNode;
  upgradeButton?: ReactNode;
  /** The workspaces of a member of several (features/team); nothing for one workspace. */
  workspaceSwitcher?: ReactNode;
}

export function Header({ title, breadcrumbs, accountSelector, upgradeButton, workspaceSwitcher }: HeaderProps) {
  return (
    <Group h="100%" px="lg" justify="space-between" wrap="nowrap">
      {breadcrumbs ?? (
        <Title order={1} size="h4">
          {title}
        </Title>
      )}
      <Group gap="sm" wrap="nowrap">
        {workspaceSwitcher}
        {accountSelector}
        {upgradeButton}
      </Group>
    </Group>
  );
}
