/**
 * `/invite?email=…&code=…`, the link of the invitation email. Signed in, it accepts the
 * invitation at once (`POST team/checkCode`) and offers to open the workspace joined;
 * refusals (not valid, used, expired, sent to another email, already a member) are said as
 * the server words them. Signed out, it names what the invitation offers (`team/invitation`:
 * workspace, sender, role, or why the code no longer works) and leads to login or register
 * with the invited email, coming back here afterwards (the `redirect` query keeps the code).
 */
import { Alert, Anchor, Button, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef, type ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { roleLabel, useSession, useSignOut } from '@/features/auth';
import { t } from '@/i18n';
import { ApiError } from '@/lib/api-error';
import { showSnackbar } from '@/lib/notifications';
import { useAcceptInvitation } from '../api/accept';
import { useInvitationOffer } from '../api/invitation-offer';
import { useSwitchWorkspace } from '../api/workspaces';
import { readInviteLink, signInPath, type InviteLink } from '../invite-link';
import { teamErrorMessage } from '../rules';

function InviteCard({ children }: { children: ReactNode }) {
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={460}>
        <Stack gap="lg">
          <Text fw={700} c="blue">
            {t('app.name')}
          </Text>
          <Title order={1} size="h2">
            {t('invite.title')}
          </Title>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}

function SignedOut({ link }: { link: InviteLink }) {
  // What the invitation offers, named before signing in; a code that no longer works says so
  // here rather than after an account was made for it.
  const offer = useInvitationOffer(link);
  return (
    <>
      {offer.data && (
        <Text fw={600} data-testid="invite-offer">
          {(offer.data.inviter ? t('invite.offer') : t('invite.offerNoInviter'))
            .replace('{inviter}', offer.data.inviter ?? '')
            .replace('{workspace}', offer.data.workspaceName)
            .replace('{role}', roleLabel(offer.data.role))}
        </Text>
      )}
      {offer.isError && (
        <Alert color="red" title={t('invite.unusable')} role="alert">
          {teamErrorMessage(offer.error)}
        </Alert>
      )}
      <Text>{link.email ? t(offer.data ? 'invite.signInToAccept' : 'invite.signedOut').replace('{email}', link.email) : t('invite.signedOutNoEmail')}</Text>
      <Group grow>
        <Button component={Link} to={signInPath('register', link)}>
          {t('auth.signUp')}
        </Button>
        <Button component={Link} to={signInPath('login', link)} variant="default">
          {t('auth.signIn')}
        </Button>
      </Group>
    </>
  );
}

const OTHER_EMAIL = 'This invitation was sent to another email address';

function Accepting({ link }: { link: InviteLink }) {
  const accept = useAcceptInvitation();
  const enter = useSwitchWorkspace();
  const signOut = useSignOut();
  const navigate = useNavigate();
  const asked = useRef(false);
  const { mutate } = accept;
  useEffect(() => {
    // Once per code: a second call would only hear that the invitation was used.
    if (asked.current) return;
    asked.current = true;
    mutate(link.code);
  }, [mutate, link.code]);

  if (accept.isError) {
    const message = teamErrorMessage(accept.error);
    const otherEmail = accept.error instanceof ApiError && accept.error.errors.some((e) => e.message === OTHER_EMAIL);
    return (
      <>
        <Alert color="red" title={t('invite.failed')} role="alert">
          {message}
        </Alert>
        <Group justify="space-between">
          <Anchor component={Link} to="/">
            {t('common.goHome')}
          </Anchor>
          {otherEmail && (
            <Button variant="default" onClick={() => signOut.mutate()} loading={signOut.isPending}>
              {t('invite.signOutAndUse')}
            </Button>
          )}
        </Group>
      </>
    );
  }
  if (!accept.data) {
    return (
      <Group gap="sm">
        <Loader size="sm" />
        <Text>{t('invite.accepting')}</Text>
      </Group>
    );
  }
  const joined = accept.data;
  const open = () =>
    enter.mutate(joined.workspaceId, {
      onSuccess: () => {
        showSnackbar(t('workspace.switched').replace('{name}', joined.workspaceName));
        void navigate('/optimization', { replace: true });
      },
      onError: (error) => showSnackbar(teamErrorMessage(error), 'danger'),
    });
  return (
    <>
      <Alert color="green" role="status">
        {t('invite.joined').replace('{workspace}', joined.workspaceName).replace('{role}', roleLabel(joined.role))}
      </Alert>
      <Group justify="space-between">
        <Anchor component={Link} to="/">
          {t('invite.stay')}
        </Anchor>
        <Button onClick={open} loading={enter.isPending}>
          {t('invite.open').replace('{workspace}', joined.workspaceName)}
        </Button>
      </Group>
    </>
  );
}

export function AcceptInviteScreen() {
  const { search } = useLocation();
  const { user } = useSession();
  const link = readInviteLink(search);
  return (
    <InviteCard>
      {!link.code ? <Text>{t('invite.noCode')}</Text> : user ? <Accepting link={link} /> : <SignedOut link={link} />}
    </InviteCard>
  );
}
