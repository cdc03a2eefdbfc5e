/** Account Settings > General: who you are, the invoice email, password and sign out. */
import { Anchor, Button, Card, Group, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useSession, useSignOut } from '@/features/auth';
import { t } from '@/i18n';
import { AccountSummary } from './AccountSummary';
import { AlternativeInvoiceEmailForm } from './AlternativeInvoiceEmailForm';

export function GeneralSettings() {
  const { user } = useSession();
  const signOut = useSignOut();
  if (!user) return null;
  return (
    <Stack maw={720} gap="lg">
      <Title order={2} size="h3">
        {t('settings.general')}
      </Title>
      <Card withBorder>
        <AccountSummary user={user} />
      </Card>
      <Card withBorder>
        <AlternativeInvoiceEmailForm user={user} />
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
