/**
 * The unused invitations: pending ones (newest first), then those that expired in the last
 * 30 days, marked *Expired* (the server lists them that long, then deletes them), each with
 * email, role, who invited, when it expires, and Resend (the same email and role invited
 * again: the old code stops working, an expired row becomes pending) or Revoke.
 */
import { Badge, Button, Group, ScrollArea, Table, Text } from '@mantine/core';
import { roleLabel, type Role } from '@/features/auth';
import { t } from '@/i18n';
import { EMPTY, formatDateTime } from '@/lib/format';
import { showSnackbar } from '@/lib/notifications';
import type { Invitation } from '../api/get-team';
import { useInvite } from '../api/invite';
import { useRemoveEntry } from '../api/remove-entry';
import { inviteRefused, teamErrorMessage } from '../rules';

function Row({ invitation, caller }: { invitation: Invitation; caller: Role }) {
  const resend = useInvite();
  const revoke = useRemoveEntry();
  const { email, role } = invitation;
  // An admin may revoke an owner's invitation but not send it again (only an owner makes one).
  const resendRefused = inviteRefused(caller, role);
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {email}
        </Text>
      </Table.Td>
      <Table.Td>{roleLabel(role)}</Table.Td>
      <Table.Td>
        <Text size="sm" c="dimmed">
          {invitation.invitedBy ?? EMPTY}
        </Text>
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        {invitation.expired ? (
          <Badge color="red" variant="light" title={formatDateTime(invitation.expiresAt * 1000)}>
            {t('team.expired')}
          </Badge>
        ) : (
          formatDateTime(invitation.expiresAt * 1000)
        )}
      </Table.Td>
      <Table.Td>
        <Group gap="xs" justify="flex-end" wrap="nowrap">
          <Button
            size="xs"
            variant="subtle"
            disabled={resendRefused !== null}
            title={resendRefused ? t(resendRefused) : undefined}
            loading={resend.isPending}
            aria-label={`${t('team.resend')} ${email}`}
            onClick={() =>
              resend.mutate(
                { email, role },
                {
                  onSuccess: () => showSnackbar(t('team.resent').replace('{email}', email)),
                  onError: (error) => showSnackbar(teamErrorMessage(error), 'danger'),
                },
              )
            }
          >
            {t('team.resend')}
          </Button>
          <Button
            size="xs"
            variant="subtle"
            color="red"
            loading={revoke.isPending}
            aria-label={`${t('team.revoke')} ${email}`}
            onClick={() =>
              revoke.mutate(
                { kind: 'invitation', id: invitation.id },
                {
                  onSuccess: () => showSnackbar(t('team.revoked').replace('{email}', email)),
                  onError: (error) => showSnackbar(teamErrorMessage(error), 'danger'),
                },
              )
            }
          >
            {t('team.revoke')}
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

export function InvitationsList({ invitations, caller }: { invitations: Invitation[]; caller: Role }) {
  if (invitations.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('team.noInvitations')}
      </Text>
    );
  }
  return (
    <ScrollArea type="auto">
      <Table verticalSpacing="sm" aria-label={t('team.invitations')} data-testid="team-invitations">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('team.col.email')}</Table.Th>
            <Table.Th>{t('team.col.role')}</Table.Th>
            <Table.Th>{t('team.col.invitedBy')}</Table.Th>
            <Table.Th>{t('team.col.expires')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {[...invitations.filter((i) => !i.expired), ...invitations.filter((i) => i.expired)].map((i) => (
            <Row key={i.id} invitation={i} caller={caller} />
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}
