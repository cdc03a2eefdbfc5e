/**
 * Account Settings > General: who you are, the workspace's name (owners and admins rename
 * it), the invoice email, password and sign out. As wide
 * as the page, like the other settings pages (issue 42: they stopped at 720–960 px, 60 % of a
 * 1920 px screen); the form's field keeps a reading width of its own.
 */
import { Anchor, Box, Button, Card, Group, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useSession, useSignOut } from '@/features/auth';
import { WorkspaceNameCard } from '@/features/team';
import { t } from '@/i18n';
import { AccountSummary } from './AccountSummary';
import { AlternativeInvoiceEmailForm } from './AlternativeInvoiceEmailForm';

export function GeneralSettings() {
  const { user } = useSession();
  const signOut = useSignOut();
  if (!user) return null;
  return (
    <Stack gap="lg" data-testid="settings-page">
      <Title order={2} size="h3">
        {t('settings.general')}
      </Title>
      <Card withBorder>
        <AccountSummary user={user} />
      </Card>
      <Card withBorder>
        <WorkspaceNameCard />
      </Card>
      <Card withBorder>
        <Box maw={480}>
          <AlternativeInvoiceEmailForm user={user} />
        </Box>
      </Card>
      <Group justify="space-between">
        <Anchor component={Link} to="/settings/password">
          {t('settings.changePassword')}
        </Anchor>
        <Button variant="default" onClick={() => signOut.mutate()} loading={signOut.isPending}>
          {t('auth.signOut')}
        </Button>
      </Group>
    </Stack>
  );
}
