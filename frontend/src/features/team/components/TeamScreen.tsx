/**
 * Settings › Team (`/settings/team`, owners and admins; docs/product.md#2-url-paths-and-access,
 * docs/product.md#6-roles-and-route-limits; docs/screens/team.md): invite by email with a role, the
 * members with role and last activity (change a role, remove one or many), and the pending
 * invitations (resend, revoke). The rules of docs/api/team.md disable what they forbid; what the
 * server refuses anyway is said.
 */
import { Alert, Card, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useSession } from '@/features/auth';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { useTeam } from '../api/get-team';
import { InvitationsList } from './InvitationsList';
import { InviteForm } from './InviteForm';
import { MembersTable } from './MembersTable';

export function TeamScreen() {
  const { user } = useSession();
  const team = useTeam();
  if (!user) return null;
  const caller = user.permission;
  return (
    <Stack gap="lg" data-testid="settings-page">
      <Stack gap={4}>
        <Title order={2} size="h3">
          {t('settingsNav.team')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('team.intro')}
        </Text>
      </Stack>
      <Card withBorder component="section" aria-label={t('team.inviteTitle')}>
        <Stack gap="sm">
          <Title order={3} size="h5">
            {t('team.inviteTitle')}
          </Title>
          <InviteForm caller={caller} />
        </Stack>
      </Card>
      {team.error && (
        <Alert color="red" role="alert">
          {errorMessage(team.error)}
        </Alert>
      )}
      <Card withBorder component="section" aria-label={t('team.members')}>
        <Stack gap="sm">
          <Title order={3} size="h5">
            {t('team.members')}
          </Title>
          {team.data ? <MembersTable members={team.data.items} caller={caller} /> : !team.error && <Skeleton h={120} />}
        </Stack>
      </Card>
      <Card withBorder component="section" aria-label={t('team.invitations')}>
        <Stack gap="sm">
          <Title order={3} size="h5">
            {t('team.invitations')}
          </Title>
          {team.data ? <InvitationsList invitations={team.data.invitations} caller={caller} /> : !team.error && <Skeleton h={60} />}
        </Stack>
      </Card>
    </Stack>
  );
}
