/** A page with a title, a sentence and a way home (restricted and not-found pages). */
import { Anchor, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { t } from '@/i18n';

export function MessagePage({ title, text }: { title: string; text: string }) {
  return (
    <Center mih="60vh" p="md">
      <Stack align="center" gap="sm">
        <Title order={1} size="h2">
          {title}
        </Title>
        <Text c="dimmed">{text}</Text>
        <Anchor component={Link} to="/">
          {t('common.goHome')}
        </Anchor>
      </Stack>
    </Center>
  );
}
