/**
 * The add-account modal (docs/product.md#2-add-account-modal): what linking does, which access to
 * grant, and two ways to connect — 'Continue with Apple' (popup) or an API key pair.
 */
import { Modal, Stack, Tabs, Text } from '@mantine/core';
import { IconBrandApple, IconKey } from '@tabler/icons-react';
import { useState } from 'react';
import { t } from '@/i18n';
import { AppleConnectForm, PermissionWarning } from './AppleConnectForm';
import { KeyPairForm } from './KeyPairForm';

interface AddAccountModalProps {
  opened: boolean;
  onClose: () => void;
}

export function AddAccountModal({ opened, onClose }: AddAccountModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={t('accounts.modalTitle')} size={500} centered styles={{ content: { maxHeight: '85vh' } }}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <AddAccountContent onDone={onClose} />
    </Modal>
  );
}

/** The modal's body; the API connection screen shows it in the page. */
export function AddAccountContent({ onDone }: { onDone: () => void }) {
  const [tab, setTab] = useState<string | null>('apple');
  return (
      <Stack gap="md" mih={300}>
        <Text size="sm">{t('accounts.modalIntro')}</Text>
        <PermissionWarning />
        <Tabs value={tab} onChange={setTab} keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="apple" leftSection={<IconBrandApple size={16} />}>
              {t('accounts.tabApple')}
            </Tabs.Tab>
            <Tabs.Tab value="key" leftSection={<IconKey size={16} />}>
              {t('accounts.tabKey')}
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="apple" pt="md">
            <AppleConnectForm onDone={onDone} />
          </Tabs.Panel>
          <Tabs.Panel value="key" pt="md">
            <KeyPairForm onDone={onDone} />
          </Tabs.Panel>
        </Tabs>
      </Stack>
  );
}
