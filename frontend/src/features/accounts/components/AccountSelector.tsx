/**
 * The header's account selector (docs/product.md#2-account-selector): the active account (or
 * 'Select account') and campaign group (or 'All campaign groups'); its popover lists accounts and
 * the active account's campaign groups, refreshes the groups, adds an account and signs out.
 * Choosing an account clears the org (docs/product.md#4-sign-in-account-and-session) and says
 * 'Account changed to …'.
 */
import { ActionIcon, Button, Divider, Group, Popover, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconLogout, IconPlus, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useSession, useSignOut } from '@/features/auth';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { showSnackbar } from '@/lib/notifications';
import { switchAccount } from '../active';
import type { Account, Org } from '../api/account';
import { useRefreshOrgs } from '../api/refresh-orgs';
import { useActivateAccount } from '../api/use-account';
import { useActiveAccount } from '../hooks/useActiveAccount';
import { campaignsPath, OPTIMIZATION_PATH, orgsPath } from '../paths';
import { AddAccountModal } from './AddAccountModal';
import { LastSynced } from './LastSynced';
import { ChoiceItem, ChoiceList } from './ChoiceList';

export function AccountSelector() {
  const { user } = useSession();
  const { accounts, account, org, choice, setChoice } = useActiveAccount();
  const [opened, setOpened] = useState(false);
  const [adding, setAdding] = useState(false);
  const activate = useActivateAccount();
  const refresh = useRefreshOrgs();
  const signOut = useSignOut();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const canConnect = user !== null && user.permission !== 'reader';

  const chooseAccount = (picked: Account) => {
    const next = switchAccount(choice, picked._id);
    setOpened(false);
    activate.mutate(next, {
      onSuccess: () => {
        setChoice(next);
        showSnackbar(`${t('accounts.changed')} ${picked.name}`);
        if (pathname.startsWith(`${OPTIMIZATION_PATH}/`)) void navigate(orgsPath(picked._id));
      },
      onError: (error) => showSnackbar(`${t('accounts.changeFailed')} ${errorMessage(error)}`, 'danger'),
    });
  };

  const chooseOrg = (picked: Org | null) => {
    if (!account) return;
    const next = { accountId: account._id, orgId: picked?.orgId ?? null };
    setOpened(false);
    activate.mutate(next, {
      onSuccess: () => {
        setChoice(next);
        // On the drill-down the address follows the choice: the group's campaigns, or the
        // account's campaign groups for 'All campaign groups'.
        if (pathname.startsWith(`${OPTIMIZATION_PATH}/`)) {
          void navigate(picked ? campaignsPath(account._id, picked.orgId) : orgsPath(account._id));
        }
      },
      onError: (error) => showSnackbar(`${t('accounts.changeFailed')} ${errorMessage(error)}`, 'danger'),
    });
  };

  const refreshOrgs = () => {
    if (!account) return;
    refresh.mutate(account._id, {
      onSuccess: () => showSnackbar(t('accounts.orgsRefreshed')),
      onError: (error) => showSnackbar(errorMessage(error), 'danger'),
    });
  };

  return (
    <>
      <Popover opened={opened} onChange={setOpened} position="bottom-end" shadow="md" withinPortal trapFocus={false}>
        <Popover.Target>
          <UnstyledButton
            onClick={() => setOpened((o) => !o)}
            aria-haspopup="dialog"
            aria-expanded={opened}
            data-testid="account-selector"
            px="sm"
            py={4}
            style={{ borderRadius: 'var(--mantine-radius-md)', border: '1px solid var(--mantine-color-default-border)', maxWidth: 280 }}
          >
            <Group gap="xs" wrap="nowrap">
              <Stack gap={0} style={{ minWidth: 0 }}>
                <Text size="sm" fw={600} truncate="end">
                  {account?.name ?? t('accounts.selectAccount')}
                </Text>
                <Text size="xs" c="dimmed" truncate="end">
                  {org?.displayName ?? t('accounts.allOrgs')}
                </Text>
              </Stack>
              <IconChevronDown size={16} style={{ flex: 'none' }} />
            </Group>
          </UnstyledButton>
        </Popover.Target>
        <Popover.Dropdown p="md" maw="min(95vw, 960px)" data-testid="account-popover">
          <Stack gap="sm">
            <Group align="flex-start" gap="lg" wrap="nowrap">
              <ChoiceList
                kind="accounts"
                title={t('accounts.accounts')}
                searchLabel={t('accounts.searchAccounts')}
                items={accounts}
                itemKey={(a) => a._id}
                name={(a) => a.name}
                isActive={(a) => a._id === account?._id}
                onPick={chooseAccount}
              />
              {account && (
                <>
                  <Divider orientation="vertical" />
                  <ChoiceList
                    kind="groups"
                    title={t('accounts.orgs')}
                    searchLabel={t('accounts.searchOrgs')}
                    items={account.acls}
                    itemKey={(o) => String(o.orgId)}
                    name={(o) => o.displayName}
                    isActive={(o) => o.orgId === org?.orgId}
                    onPick={chooseOrg}
                    leading={<ChoiceItem label={t('accounts.allOrgs')} active={org === null} onClick={() => chooseOrg(null)} />}
                    action={
                      <Tooltip label={t('accounts.refreshOrgs')} withArrow>
                        <ActionIcon
                          variant="subtle"
                          color="gray"
                          size="sm"
                          onClick={refreshOrgs}
                          loading={refresh.isPending}
                          aria-label={t('accounts.refreshOrgs')}
                        >
                          <IconRefresh size={14} />
                        </ActionIcon>
                      </Tooltip>
                    }
                  />
                </>
              )}
            </Group>
            {account && <LastSynced account={account} />}
            <Divider />
            <Group justify="space-between">
              {canConnect ? (
                <Button
                  variant="light"
                  size="xs"
                  leftSection={<IconPlus size={14} />}
                  onClick={() => {
                    setOpened(false);
                    setAdding(true);
                  }}
                >
                  {t('accounts.addNew')}
                </Button>
              ) : (
                <span />
              )}
              <Button
                variant="subtle"
                color="gray"
                size="xs"
                leftSection={<IconLogout size={14} />}
                onClick={() => signOut.mutate()}
                loading={signOut.isPending}
              >
                {t('auth.signOut')}
              </Button>
            </Group>
          </Stack>
        </Popover.Dropdown>
      </Popover>
      <AddAccountModal opened={adding} onClose={() => setAdding(false)} />
    </>
  );
}
