/**
 * optimization_orgs (/optimization/{accountId}): the campaign groups a connection uses, with
 * their currency, time zone and the connection's access, the account's last sync, and a
 * refresh from Apple Ads. Choosing a group makes it the active org and opens its campaigns.
 */
import { ActionIcon, Badge, Button, Card, Center, Group, Loader, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { MessagePage } from '@/components/MessagePage';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { showSnackbar } from '@/lib/notifications';
import type { Account, Org } from '../api/account';
import { useRefreshOrgs } from '../api/refresh-orgs';
import { useActivateAccount } from '../api/use-account';
import { useActiveAccount } from '../hooks/useActiveAccount';
import { campaignsPath } from '../paths';
import { LastSynced } from './AccountSelector';

function OrgsTable({ account, activeOrg, onPick }: { account: Account; activeOrg: number | null; onPick: (org: Org) => void }) {
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table highlightOnHover verticalSpacing="sm" stickyHeader>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('orgs.name')}</Table.Th>
            <Table.Th>{t('orgs.id')}</Table.Th>
            <Table.Th>{t('orgs.currency')}</Table.Th>
            <Table.Th>{t('orgs.timeZone')}</Table.Th>
            <Table.Th>{t('orgs.permission')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {account.acls.map((org) => (
            <Table.Tr key={org.orgId}>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <Button variant="transparent" px={0} onClick={() => onPick(org)}>
                    {org.displayName || String(org.orgId)}
                  </Button>
                  {org.orgId === activeOrg && (
                    <Badge size="xs" variant="light">
                      {t('orgs.active')}
                    </Badge>
                  )}
                </Group>
              </Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {org.orgId}
                </Text>
              </Table.Td>
              <Table.Td>{org.currency ?? '—'}</Table.Td>
              <Table.Td>{org.timeZone ?? '—'}</Table.Td>
              <Table.Td>
                <Text size="sm" c="dimmed">
                  {org.permission}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

export function OrgsScreen() {
  const { accountId } = useParams();
  const { accounts, isLoading, choice, setChoice } = useActiveAccount();
  const refresh = useRefreshOrgs();
  const activate = useActivateAccount();
  const navigate = useNavigate();
  const shown = accounts.find((a) => a._id === accountId);
  // The URL scopes the page (spec §2): an account opened by its address becomes the active
  // one, so the selector and the page never disagree.
  const otherActive = shown !== undefined && choice?.accountId !== shown._id;
  useEffect(() => {
    if (otherActive && shown) setChoice({ accountId: shown._id, orgId: null });
  }, [otherActive, shown, setChoice]);
  if (isLoading) {
    return (
      <Center mih="40vh">
        <Loader aria-label={t('common.loading')} />
      </Center>
    );
  }
  const account = shown;
  if (!account) return <MessagePage title={t('title.orgs')} text={t('orgs.unknownAccount')} />;
  const activeOrg = choice?.accountId === account._id ? choice.orgId : null;
  const pick = (org: Org) => {
    const next = { accountId: account._id, orgId: org.orgId };
    activate.mutate(next, {
      onSuccess: () => {
        setChoice(next);
        void navigate(campaignsPath(account._id, org.orgId));
      },
      onError: (error) => showSnackbar(`${t('accounts.changeFailed')} ${errorMessage(error)}`, 'danger'),
    });
  };
  const refreshButton = (
    <Tooltip label={t('accounts.refreshOrgs')} withArrow>
      <ActionIcon
        variant="default"
        size="lg"
        aria-label={t('accounts.refreshOrgs')}
        loading={refresh.isPending}
        onClick={() =>
          refresh.mutate(account._id, {
            onSuccess: () => showSnackbar(t('accounts.orgsRefreshed')),
            onError: (error) => showSnackbar(errorMessage(error), 'danger'),
          })
        }
      >
        <IconRefresh size={18} />
      </ActionIcon>
    </Tooltip>
  );
  return (
    <Stack gap="lg" maw={1100}>
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={2} size="h3">
            {account.name}
          </Title>
          <LastSynced account={account} />
        </Stack>
        {refreshButton}
      </Group>
      <Card withBorder p={0}>
        {account.acls.length === 0 ? (
          <Stack align="center" gap={4} p="xl">
            <Text fw={600}>{t('orgs.emptyTitle')}</Text>
            <Text size="sm" c="dimmed" ta="center" maw={420}>
              {t('orgs.emptyText')}
            </Text>
          </Stack>
        ) : (
          <OrgsTable account={account} activeOrg={activeOrg} onPick={pick} />
        )}
      </Card>
    </Stack>
  );
}
