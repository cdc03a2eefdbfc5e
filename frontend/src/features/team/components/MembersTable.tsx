/**
 * The members (TanStack Table like the other screens): a checkbox per row for the bulk
 * actions, name and email, the role (a picker where the caller may change it, its options
 * disabled where a rule forbids them), last activity and Remove (Leave on one's own row).
 * Selected rows get a bar to set one role for all (`PATCH team/many`) or remove them all
 * (`DELETE team/many`) after a confirmation. A control a rule forbids is disabled and says why.
 */
import { Badge, Button, Checkbox, Group, Menu, Modal, ScrollArea, Select, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconChevronDown, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef, type RowSelectionState } from '@tanstack/react-table';
import { useMemo, useState, type ReactElement } from 'react';
import { authKeys, roleLabel, type Role } from '@/features/auth';
import { t, tn } from '@/i18n';
import { formatDateTime } from '@/lib/format';
import { showSnackbar } from '@/lib/notifications';
import { useChangeRole } from '../api/change-role';
import { useChangeRoles } from '../api/change-roles';
import type { Member } from '../api/get-team';
import { useRemoveEntry } from '../api/remove-entry';
import { useRemoveMembers } from '../api/remove-members';
import { assignableRoles, lastActiveMs, removalRefused, roleChangeRefused, teamErrorMessage } from '../rules';

function displayName(m: Member): string {
  return m.fullName.trim() || m.email;
}

/** A control that may be disabled by a rule, with the rule's words as its tooltip. */
function WhyNot({ reason, children }: { reason: string | null; children: ReactElement }) {
  if (!reason) return children;
  return (
    <Tooltip label={reason} withArrow multiline maw={260}>
      <span style={{ display: 'inline-block' }}>{children}</span>
    </Tooltip>
  );
}

function RoleCell({ member, members, caller }: { member: Member; members: Member[]; caller: Role }) {
  const change = useChangeRole();
  const options = assignableRoles(caller).map((role) => {
    const refused = role === member.role ? null : roleChangeRefused(caller, [member], role, members);
    return { value: role, label: roleLabel(role), disabled: refused !== null };
  });
  // An owner shown to an admin is not among the roles the admin may give: show it anyway.
  if (!options.some((o) => o.value === member.role)) options.unshift({ value: member.role, label: roleLabel(member.role), disabled: true });
  const others = options.filter((o) => o.value !== member.role);
  const locked = others.every((o) => o.disabled);
  const reason = locked
    ? (roleChangeRefused(caller, [member], member.role === 'owner' ? 'admin' : 'owner', members) ?? roleChangeRefused(caller, [member], 'reader', members))
    : null;
  const onChange = (value: string | null) => {
    if (!value || value === member.role) return;
    const role = value as Role;
    change.mutate(
      { id: member.id, role },
      {
        onSuccess: () => showSnackbar(t('team.roleChanged').replace('{name}', displayName(member)).replace('{role}', roleLabel(role))),
        onError: (error) => showSnackbar(teamErrorMessage(error), 'danger'),
      },
    );
  };
  return (
    <WhyNot reason={reason && t(reason)}>
      <Select
        aria-label={t('team.roleOf').replace('{name}', displayName(member))}
        data={options}
        value={member.role}
        onChange={onChange}
        disabled={locked || change.isPending}
        allowDeselect={false}
        size="xs"
        w={130}
      />
    </WhyNot>
  );
}

interface Removal {
  members: Member[];
}

export function MembersTable({ members, caller }: { members: Member[]; caller: Role }) {
  const [selection, setSelection] = useState<RowSelectionState>({});
  const [removal, setRemoval] = useState<Removal | null>(null);
  const removeOne = useRemoveEntry();
  const removeMany = useRemoveMembers();
  const changeMany = useChangeRoles();
  const client = useQueryClient();
  const selected = members.filter((m) => selection[m.id]);

  const columns = useMemo<ColumnDef<Member>[]>(
    () => [
      {
        id: 'select',
        header: ({ table }) => (
          <Checkbox
            aria-label={t('team.selectAll')}
            checked={table.getIsAllRowsSelected()}
            indeterminate={table.getIsSomeRowsSelected()}
            onChange={table.getToggleAllRowsSelectedHandler()}
          />
        ),
        cell: ({ row }) => (
          <Checkbox
            aria-label={t('team.selectRow').replace('{name}', displayName(row.original))}
            checked={row.getIsSelected()}
            onChange={row.getToggleSelectedHandler()}
          />
        ),
      },
      {
        id: 'member',
        header: t('team.col.member'),
        cell: ({ row }) => (
          <Stack gap={0} miw={0}>
            <Group gap={6} wrap="nowrap">
              <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                {displayName(row.original)}
              </Text>
              {row.original.you && (
                <Badge size="xs" variant="light">
                  {t('team.you')}
                </Badge>
              )}
            </Group>
            {row.original.fullName.trim() && (
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {row.original.email}
              </Text>
            )}
          </Stack>
        ),
      },
      { id: 'role', header: t('team.col.role'), cell: ({ row }) => <RoleCell member={row.original} members={members} caller={caller} /> },
      {
        id: 'lastActive',
        header: t('team.col.lastActive'),
        cell: ({ row }) => {
          const at = lastActiveMs(row.original);
          return (
            <Text size="sm" c={at === null ? 'dimmed' : undefined}>
              {at === null ? t('team.never') : formatDateTime(at)}
            </Text>
          );
        },
      },
      {
        id: 'actions',
        header: '',
        cell: ({ row }) => {
          const reason = removalRefused(caller, [row.original], members);
          return (
            <Group justify="flex-end">
              <WhyNot reason={reason && t(reason)}>
                <Button
                  size="xs"
                  variant="subtle"
                  color="red"
                  leftSection={<IconTrash size={14} />}
                  disabled={reason !== null}
                  onClick={() => setRemoval({ members: [row.original] })}
                  aria-label={`${row.original.you ? t('team.leave') : t('team.remove')} ${displayName(row.original)}`}
                >
                  {row.original.you ? t('team.leave') : t('team.remove')}
                </Button>
              </WhyNot>
            </Group>
          );
        },
      },
    ],
    [members, caller],
  );

  // TanStack Table's instance is rebuilt on every render, which is what it needs.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: members,
    columns,
    getRowId: (m) => m.id,
    state: { rowSelection: selection },
    onRowSelectionChange: setSelection,
    enableRowSelection: true,
    getCoreRowModel: getCoreRowModel(),
  });

  const bulkRemoveReason = selected.length > 0 ? removalRefused(caller, selected, members) : null;

  const setRoles = (role: Role) => {
    changeMany.mutate(
      { ids: selected.map((m) => m.id), role },
      {
        onSuccess: () => {
          setSelection({});
          showSnackbar(t('team.rolesChanged').replace('{role}', roleLabel(role)));
        },
        onError: (error) => showSnackbar(teamErrorMessage(error), 'danger'),
      },
    );
  };

  const confirmRemoval = () => {
    if (!removal) return;
    const leaving = removal.members.some((m) => m.you);
    const done = (count: number) => {
      setRemoval(null);
      setSelection({});
      showSnackbar(tn('team.removed', count));
      // Leaving ends one's own session here: the session query finds out and signs out.
      if (leaving) void client.invalidateQueries({ queryKey: authKeys.session() });
    };
    const failed = (error: unknown) => {
      setRemoval(null);
      showSnackbar(teamErrorMessage(error), 'danger');
    };
    const [only] = removal.members;
    if (removal.members.length === 1 && only) {
      removeOne.mutate({ kind: 'member', id: only.id }, { onSuccess: () => done(1), onError: failed });
    } else {
      removeMany.mutate(
        removal.members.map((m) => m.id),
        { onSuccess: (r) => done(r.deleted), onError: failed },
      );
    }
  };

  const removalText = removal?.members.length === 1 && removal.members[0]?.you
    ? t('team.leaveText')
    : t('team.removeText').replace('{names}', (removal?.members ?? []).map(displayName).join(', '));

  return (
    <Stack gap="sm">
      {selected.length > 0 && (
        <Group gap="sm" data-testid="team-bulk-bar" p="xs" style={{ borderRadius: 'var(--mantine-radius-sm)', background: 'var(--mantine-color-blue-light)' }}>
          <Text size="sm" fw={500}>
            {tn('team.selected', selected.length)}
          </Text>
          <Menu position="bottom-start" withinPortal>
            <Menu.Target>
              <Button size="xs" variant="default" rightSection={<IconChevronDown size={14} />} loading={changeMany.isPending}>
                {t('team.setRole')}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {assignableRoles(caller).map((role) => {
                const reason = roleChangeRefused(caller, selected, role, members);
                return (
                  <Tooltip key={role} label={reason ? t(reason) : ''} disabled={!reason} position="right" withArrow>
                    <Menu.Item disabled={reason !== null} onClick={() => setRoles(role)}>
                      {roleLabel(role)}
                    </Menu.Item>
                  </Tooltip>
                );
              })}
            </Menu.Dropdown>
          </Menu>
          <WhyNot reason={bulkRemoveReason && t(bulkRemoveReason)}>
            <Button size="xs" color="red" variant="light" leftSection={<IconTrash size={14} />} disabled={bulkRemoveReason !== null} onClick={() => setRemoval({ members: selected })}>
              {t('team.removeSelected')}
            </Button>
          </WhyNot>
          <Button size="xs" variant="subtle" color="gray" onClick={() => setSelection({})}>
            {t('team.clearSelection')}
          </Button>
        </Group>
      )}
      <ScrollArea type="auto">
        <Table highlightOnHover verticalSpacing="sm" aria-label={t('team.members')} data-testid="team-members">
          <Table.Thead>
            {table.getHeaderGroups().map((group) => (
              <Table.Tr key={group.id}>
                {group.headers.map((header) => (
                  <Table.Th key={header.id} w={header.column.id === 'select' ? 40 : undefined}>
                    {flexRender(header.column.columnDef.header, header.getContext())}
                  </Table.Th>
                ))}
              </Table.Tr>
            ))}
          </Table.Thead>
          <Table.Tbody>
            {table.getRowModel().rows.map((row) => (
              <Table.Tr key={row.id} bg={row.getIsSelected() ? 'var(--mantine-color-blue-light)' : undefined}>
                {row.getVisibleCells().map((cell) => (
                  <Table.Td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      <Modal opened={removal !== null} onClose={() => setRemoval(null)} title={t('team.removeTitle')} centered>
        <Stack gap="md">
          <Text size="sm">{removalText}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRemoval(null)}>
              {t('common.cancel')}
            </Button>
            <Button color="red" onClick={confirmRemoval} loading={removeOne.isPending || removeMany.isPending}>
              {removal?.members.length === 1 && removal.members[0]?.you ? t('team.leave') : t('team.remove')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
