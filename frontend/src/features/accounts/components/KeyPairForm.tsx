/**
 * The 'API key' tab: the generated public key to register with Apple (with a copy button),
 * then the name, client ID, team ID and key ID of the API user. Server field errors land on
 * the fields; a refusal by Apple shows above the form.
 */
import { ActionIcon, Code, CopyButton, Group, Skeleton, Stack, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { Form, SubmitButton, TextField, useZodForm } from '@/components/form';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { createAccountInputSchema, useCreateAccount, type CreateAccountInput } from '../api/create-account';
import { usePublicKey } from '../api/get-public-key';
import { useConnected } from '../hooks/useConnected';
import { AccountNameField } from './AccountNameField';

function PublicKeyBlock() {
  const key = usePublicKey(true);
  if (key.isPending) return <Skeleton h={120} aria-label={t('common.loading')} />;
  if (key.isError) {
    return (
      <Text c="red" size="sm" role="alert">
        {errorMessage(key.error)}
      </Text>
    );
  }
  return (
    <Stack gap={4}>
      <Group justify="space-between">
        <Text size="sm" fw={500}>
          {t('accounts.publicKey')}
        </Text>
        <CopyButton value={key.data}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? t('accounts.copied') : t('accounts.copy')} withArrow>
              <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={t('accounts.copy')}>
                {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
      <Code block data-testid="public-key" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', fontSize: 11 }}>
        {key.data}
      </Code>
    </Stack>
  );
}

export function KeyPairForm({ onDone }: { onDone: () => void }) {
  const form = useZodForm(createAccountInputSchema, { name: '', clientId: '', teamId: '', keyId: '' } satisfies CreateAccountInput);
  const create = useCreateAccount();
  const connected = useConnected();
  const submit = async (input: CreateAccountInput) => {
    const created = await create.mutateAsync(input);
    await connected(created.item._id, { added: created.added, previousName: created.previousName ?? null, name: created.item.name });
    onDone();
  };
  return (
    <Stack gap="md">
      <Text size="sm">{t('accounts.keyIntro')}</Text>
      <PublicKeyBlock />
      <Form form={form} onSubmit={submit} name={t('accounts.tabKey')}>
        <AccountNameField control={form.control} name="name" />
        <TextField control={form.control} name="clientId" label={t('accounts.clientId')} />
        <Group grow align="flex-start">
          <TextField control={form.control} name="teamId" label={t('accounts.teamId')} />
          <TextField control={form.control} name="keyId" label={t('accounts.keyId')} />
        </Group>
        <SubmitButton fullWidth>{t('accounts.connect')}</SubmitButton>
      </Form>
    </Stack>
  );
}
