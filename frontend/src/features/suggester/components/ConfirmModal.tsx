/**
 * A confirmation (docs/product.md#2-keyword-suggester: going back from step 2, stopping a
 * collection): title, text, cancel and confirm.
 */
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
  color?: string;
}

export function ConfirmModal({ opened, title, text, confirmLabel, onConfirm, onClose, pending = false, color = 'blue' }: ConfirmModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} size={500} centered>
      <Text size="sm" c="dimmed">
        {text}
      </Text>
      <Group justify="flex-end" mt="xl">
        <Button variant="default" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button color={color} onClick={onConfirm} loading={pending}>
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
