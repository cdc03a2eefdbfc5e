/** The error element of a route: a chunk that did not load asks for a reload; other errors say so. */
import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useRouteError } from 'react-router';
import { t } from '@/i18n';
import { isChunkLoadError } from './lazy-screen';

export function ScreenError() {
  const error = useRouteError();
  const chunk = isChunkLoadError(error);
  return (
    <Center mih="60vh" p="md">
      <Stack align="center" gap="sm" role="alert">
        <Title order={1} size="h2">
          {chunk ? t('error.chunkTitle') : t('error.screenTitle')}
        </Title>
        <Text c="dimmed">{chunk ? t('error.chunkText') : t('error.screenText')}</Text>
        <Button variant="default" onClick={() => window.location.reload()}>
          {t('common.reload')}
        </Button>
      </Stack>
    </Center>
  );
}
