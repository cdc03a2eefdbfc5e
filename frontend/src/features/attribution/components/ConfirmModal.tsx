/** A confirmation of a change that cannot be undone (rotating, disconnecting): title, text, cancel and confirm. */
import { Button, Group, Modal, Text } from '@mantine/core';
import { t } from '@/i18n';

export interface ConfirmModalProps {
  opened: boolean;
  title: string;
  text: string;
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
  pending?: boolean;
}

export function ConfirmModal({ opened, title, text, confirmLabel, onConfirm, onClose, pending = false }: ConfirmModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} size={480} centered closeButtonProps={{ 'aria-label': t('common.close') }}>
      <Text size="sm">{text}</Text>
      <Group justify="flex-end" mt="xl">
        <Button variant="default" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button color="red" onClick={onConfirm} loading={pending}>
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
