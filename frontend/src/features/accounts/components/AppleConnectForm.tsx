/**
 * The 'Continue with Apple' tab: the account name, then the popup. A name the server refuses
 * lands on the field; any other failure to get the authorize URL is a snackbar
 * (docs/product.md#8-account-and-oauth-messages).
 */
import { Alert, Button, Group, Loader, Text } from '@mantine/core';
import { IconBrandApple } from '@tabler/icons-react';
import { z } from 'zod';
import { Form, useZodForm } from '@/components/form';
import { t } from '@/i18n';
import { ApiError, errorMessage } from '@/lib/api-error';
import { showLongSnackbar } from '@/lib/notifications';
import { accountNameField } from '../api/create-account';
import { useOauthConnect } from '../hooks/useOauthConnect';
import { AccountNameField } from './AccountNameField';

export const appleConnectSchema = z.object({ accountName: accountNameField() });
type AppleConnectInput = z.input<typeof appleConnectSchema>;

export function AppleConnectForm({ onDone }: { onDone: () => void }) {
  const form = useZodForm(appleConnectSchema, { accountName: '' } satisfies AppleConnectInput);
  const { phase, start } = useOauthConnect({ onDone });
  const submit = async ({ accountName }: z.output<typeof appleConnectSchema>) => {
    try {
      await start(accountName);
    } catch (error) {
      if (error instanceof ApiError && error.errors.length > 0) throw error;
      showLongSnackbar(`${t('accounts.oauthUrlFailed')} ${errorMessage(error)}`, 'danger');
    }
  };
  const busy = phase !== 'idle';
  return (
    <Form form={form} onSubmit={submit} name={t('accounts.tabApple')}>
      <AccountNameField control={form.control} name="accountName" />
      {busy && (
        <Group gap="xs" wrap="nowrap">
          <Loader size="xs" />
          <Text size="sm" c="dimmed">
            {phase === 'checking' ? t('connect.returning') : t('accounts.waitingForApple')}
          </Text>
        </Group>
      )}
      <Button
        type="submit"
        color="dark"
        fullWidth
        leftSection={<IconBrandApple size={18} />}
        loading={phase === 'opening' || phase === 'checking'}
        disabled={phase === 'waiting'}
      >
        {t('accounts.continueWithApple')}
      </Button>
    </Form>
  );
}

/** The warning of docs/product.md#2-add-account-modal: which access to grant on Apple's page. */
export function PermissionWarning() {
  return (
    <Alert color="yellow" variant="light" title={t('accounts.permissionTitle')}>
      {t('accounts.permissionWarning')}
    </Alert>
  );
}
