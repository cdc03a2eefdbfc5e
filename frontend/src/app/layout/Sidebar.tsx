/** The sidebar: brand, navigation, background tasks, help center and the collapse toggle. */
import { ActionIcon, Stack, Text, Tooltip } from '@mantine/core';
import { IconLayoutSidebarLeftCollapse, IconLayoutSidebarLeftExpand } from '@tabler/icons-react';
import { ConnectionPlace } from '@/features/accounts';
import type { Role } from '@/features/auth';
import { TasksPopover } from '@/features/tasks';
import { t } from '@/i18n';
import { SidebarNav } from './SidebarNav';

interface SidebarProps {
  role: Role;
  opened: boolean;
  menuDisabled?: boolean;
  onToggle: () => void;
}

export function Sidebar({ role, opened, menuDisabled = false, onToggle }: SidebarProps) {
  const toggleLabel = opened ? t('nav.collapse') : t('nav.expand');
  return (
    <Stack h="100%" p="sm" gap="xs" justify="space-between">
      <Stack gap="xs">
        <Text fw={700} size="lg" px="xs" h={32}>
          {opened ? t('app.name') : t('app.name').charAt(0)}
        </Text>
        <SidebarNav role={role} opened={opened} disabled={menuDisabled} />
      </Stack>
      <Stack gap="xs" align={opened ? 'stretch' : 'center'}>
        <TasksPopover compact={!opened} place={ConnectionPlace} />
        <Tooltip label={toggleLabel} position="right">
          <ActionIcon variant="subtle" color="gray" onClick={onToggle} aria-label={toggleLabel}>
            {opened ? <IconLayoutSidebarLeftCollapse size={18} /> : <IconLayoutSidebarLeftExpand size={18} />}
          </ActionIcon>
        </Tooltip>
      </Stack>
    </Stack>
  );
}
