/**
 * The header's workspace switcher, for a user who belongs to several workspaces (spec:
 * agencies work in teams): the current workspace and role, and a menu of the others with
 * the role in each. Choosing one moves the session there (`POST workspaces/switch`), drops
 * every cached query so the role, sidebar and accounts load again, and opens Ads
 * Optimization (the page's address named the other workspace's account). Hidden for a
 * user with one workspace.
 */
import { Badge, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconBuilding, IconCheck, IconChevronDown } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { roleLabel, useSession } from '@/features/auth';
import { t } from '@/i18n';
import { showSnackbar } from '@/lib/notifications';
import { useSwitchWorkspace, useWorkspaces, type Workspace } from '../api/workspaces';
import { teamErrorMessage } from '../rules';

export function WorkspaceSwitcher() {
  const { user } = useSession();
  const workspaces = useWorkspaces(user !== null);
  const enter = useSwitchWorkspace();
  const navigate = useNavigate();
  const items = workspaces.data ?? [];
  if (!user || items.length < 2) return null;
  const current = items.find((w) => w.current) ?? items.find((w) => w.id === String(user.workspaceId));
  const choose = (w: Workspace) => {
    if (w.current) return;
    enter.mutate(w.id, {
      onSuccess: () => {
        showSnackbar(t('workspace.switched').replace('{name}', w.name));
        void navigate('/optimization');
      },
      onError: (error) => showSnackbar(teamErrorMessage(error), 'danger'),
    });
  };
  return (
    <Menu position="bottom-end" shadow="md" withinPortal>
      <Menu.Target>
        <UnstyledButton
          data-testid="workspace-switcher"
          aria-label={t('workspace.switchTo')}
          px="sm"
          py={4}
          style={{ borderRadius: 'var(--mantine-radius-md)', border: '1px solid var(--mantine-color-default-border)', maxWidth: 240 }}
        >
          <Group gap="xs" wrap="nowrap">
            <IconBuilding size={16} style={{ flex: 'none' }} />
            <div style={{ minWidth: 0 }}>
              <Text size="sm" fw={600} truncate="end">
                {current?.name ?? t('workspace.label')}
              </Text>
              <Text size="xs" c="dimmed" truncate="end">
                {roleLabel(user.permission)}
              </Text>
            </div>
            <IconChevronDown size={16} style={{ flex: 'none' }} />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown miw={240}>
        <Menu.Label>{t('workspace.switchTo')}</Menu.Label>
        {items.map((w) => (
          <Menu.Item
            key={w.id}
            onClick={() => choose(w)}
            disabled={enter.isPending}
            leftSection={w.current ? <IconCheck size={14} /> : <span style={{ width: 14, display: 'inline-block' }} />}
            rightSection={
              <Badge size="xs" variant="light" color={w.current ? 'blue' : 'gray'}>
                {roleLabel(w.role)}
              </Badge>
            }
          >
            {w.name}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
