/** Name, email and role of the signed-in user (role shown as Owner/Admin/Editor/Viewer). */
import { SimpleGrid, Stack, Text } from '@mantine/core';
import type { User } from '@/features/auth';
import { t } from '@/i18n';
import { roleLabel } from '../role-label';

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text>{value}</Text>
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
