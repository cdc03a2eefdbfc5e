/**
 * Name, email and role of the signed-in user (role shown as Owner/Admin/Editor/Viewer). A
 * grid cell may shrink below its text (min-width 0) and long values break anywhere, so a long
 * email wraps inside its column instead of running over the role.
 */
import { SimpleGrid, Stack, Text } from '@mantine/core';
import type { User } from '@/features/auth';
import { t } from '@/i18n';
import { roleLabel } from '../role-label';

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={2} miw={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text style={{ overflowWrap: 'anywhere' }}>{value}</Text>
    </Stack>
  );
}

export function AccountSummary({ user }: { user: User }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }}>
      <Fact label={t('settings.name')} value={user.fullName} />
      <Fact label={t('settings.email')} value={user.email} />
      <Fact label={t('settings.role')} value={roleLabel(user.permission)} />
    </SimpleGrid>
  );
}
