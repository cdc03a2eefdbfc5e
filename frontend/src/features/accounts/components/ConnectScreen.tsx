/**
 * /oauth_v2 (docs/product.md#2-url-paths-and-access): the API connection screen. Opened by the
 * connect popup with state and code (or the provider's error) in its query, it posts them to the
 * window that opened it as an oauth message and closes itself; otherwise it is where signed-in
 * users without an account are sent (docs/product.md#4-sign-in-account-and-session), with the
 * add-account form in the page.
 */
import { Card, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { useEffect, useMemo } from 'react';
import { useLocation } from 'react-router';
import { useSession } from '@/features/auth';
import { t } from '@/i18n';
import { oauthMessageFromQuery } from '../oauth-message';
import { AddAccountContent } from './AddAccountModal';

/** Return queries already handed over by this page (effects may run twice in development). */
const handedOver = new Set<string>();

/** The popup's side: hand the answer to the opener (same origin only), once, and close. */
function useHandOver(search: string): boolean {
  const message = useMemo(() => oauthMessageFromQuery(search), [search]);
  const opener = typeof window !== 'undefined' ? (window.opener as Window | null) : null;
  const handsOver = message !== null && opener !== null;
  useEffect(() => {
    if (!message || !opener || handedOver.has(search)) return;
    handedOver.add(search);
    opener.postMessage(message, window.location.origin);
    window.close();
  }, [message, opener, search]);
  return handsOver;
}

export function ConnectScreen() {
  const { search } = useLocation();
  const { user } = useSession();
  const handsOver = useHandOver(search);
  if (handsOver) {
    return (
      <Center mih="60vh">
        <Stack align="center" gap="sm">
          <Loader />
          <Text c="dimmed">{t('connect.returning')}</Text>
        </Stack>
      </Center>
    );
  }
  const canConnect = user !== null && user.permission !== 'reader';
  return (
    <Center py="xl">
      <Card withBorder shadow="sm" radius="md" p="xl" w="100%" maw={560}>
        <Stack gap="md">
          <Title order={2} size="h3">
            {t('connect.title')}
          </Title>
          {canConnect ? (
            <AddAccountContent onDone={() => undefined} />
          ) : (
            <>
              <Text c="dimmed">{t('connect.text')}</Text>
              <Text>{t('connect.readerText')}</Text>
            </>
          )}
        </Stack>
      </Card>
    </Center>
  );
}
