/**
 * Undo from the activity log (editors): after a confirmation, `POST accountsActions/{id}/undo`
 * answers a task, which the screen follows to its end (`useUndo`); the button spins
 * meanwhile.
 */
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconArrowBackUp } from '@tabler/icons-react';
import { useState } from 'react';
import type { Task } from '@/features/tasks';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { showSnackbar } from '@/lib/notifications';
import type { Notification } from '../api/notifications';
import { useUndoNotification } from '../api/undo';

interface Props {
  notification: Notification;
  /** This notification's undo is running. */
  running: boolean;
  /** Another undo is running: one at a time. */
  busy: boolean;
  onStarted: (taskId: Task['id'], notificationId: string) => void;
}

export function UndoButton({ notification, running, busy, onStarted }: Props) {
  const undo = useUndoNotification();
  const [confirming, setConfirming] = useState(false);
  const confirm = async () => {
    try {
      onStarted(await undo.mutateAsync(notification._id), notification._id);
      setConfirming(false);
      showSnackbar(t('activity.undo.started'), 'info');
    } catch (error) {
      setConfirming(false);
      showSnackbar(errorMessage(error), 'danger');
    }
  };
  return (
    <>
      <Button size="xs" variant="light" color="orange" leftSection={<IconArrowBackUp size={14} />} loading={running} disabled={running || busy} onClick={() => setConfirming(true)}>
        {t('activity.undo')}
      </Button>
      {confirming && (
        <Modal opened onClose={() => setConfirming(false)} title={t('activity.undo.title')} closeButtonProps={{ 'aria-label': t('common.close') }}>
          <Stack gap="md">
            <Text size="sm" fw={600}>
              {notification.title}
            </Text>
            <Text size="sm">{t('activity.undo.text')}</Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setConfirming(false)}>
                {t('common.cancel')}
              </Button>
              <Button color="orange" onClick={() => void confirm()} loading={undo.isPending}>
                {t('activity.undo.confirm')}
              </Button>
            </Group>
          </Stack>
        </Modal>
      )}
    </>
  );
}
