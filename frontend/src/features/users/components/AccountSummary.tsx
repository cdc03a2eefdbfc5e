/**
 * Name, email and role of the signed-in user (role shown as Owner/Admin/Editor/Viewer), side
 * by side as wide as each needs. A value too long for the row wraps only where a reader
 * expects it: an email after its '@' and its dots (`<wbr>`), never inside a word, unless a
 * single part is wider than the page.
 */
import { Group, Stack, Text } from '@mantine/core';
import { Fragment } from 'react';
import { roleLabel, type User } from '@/features/auth';
import { t } from '@/i18n';

/** `text` with a break opportunity after each '@' and '.' (an email's natural places). */
function breakable(text: string) {
  return text.split(/(?<=[@.])/).map((part, i) => (
    <Fragment key={i}>
      {i > 0 && <wbr />}
      {part}
    </Fragment>
  ));
}

function Fact({ label, value, email = false }: { label: string; value: string; email?: boolean }) {
  return (
    <Stack gap={2} miw={0} maw="100%">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text style={{ overflowWrap: 'break-word' }} data-testid={email ? 'account-email' : undefined}>
        {email ? breakable(value) : value}
      </Text>
    </Stack>
  );
}

export function AccountSummary({ user }: { user: User }) {
  return (
    <Group gap={48} align="flex-start" wrap="wrap">
      <Fact label={t('settings.name')} value={user.fullName} />
      <Fact label={t('settings.email')} value={user.email} email />
      <Fact label={t('settings.role')} value={roleLabel(user.permission)} />
    </Group>
  );
}
