/** What a screen shows while its chunk downloads: a skeleton in the layout, a loader on bare pages. */
import { Center, Loader, Skeleton, Stack } from '@mantine/core';
import { t } from '@/i18n';

export function ScreenFallback({ bare }: { bare: boolean }) {
  if (bare) {
    return (
      <Center h="100vh">
        <Loader aria-label={t('common.loading')} />
      </Center>
    );
  }
  return (
    <Stack maw={720} gap="md" aria-busy="true" aria-label={t('common.loading')}>
      <Skeleton height={28} width="40%" />
      <Skeleton height={120} />
      <Skeleton height={120} />
    </Stack>
  );
}
