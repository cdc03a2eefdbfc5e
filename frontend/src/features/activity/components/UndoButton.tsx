/**
 * Undo from the activity log (editors): after a confirmation, `POST accountsActions/{id}/undo`
 * answers a task, followed through the tasks feature's poll to its end; then the log and the
 * unread count are read again and the task's outcome is shown (what was set back, and what
 * was skipped because it changed since).
 */
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconArrowBackUp } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTaskOutcome } from '@/features/tasks';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { showSnackbar } from '@/lib/notifications';
import { activityKeys } from '../api/keys';
import type { Notification } from '../api/notifications';
import { useUndoNotification } from '../api/undo';

export function UndoButton({ notification }: { notification: Notification }) {
  const client = useQueryClient();
  const undo = useUndoNotification();
  const [confirming, setConfirming] = useState(false);
  const outcome = useTaskOutcome((task) => {
    void client.invalidateQueries({ queryKey: activityKeys.all });
    if (task.error) showSnackbar(task.error, 'danger');
    else showSnackbar(task.message ? `${t('activity.undo.done')} ${task.message}` : t('activity.undo.done'));
  });
  const confirm = async () => {
    try {
      outcome.start(await undo.mutateAsync(notification._id));
      setConfirming(false);
      showSnackbar(t('activity.undo.started'), 'info');
    } catch (error) {
      setConfirming(false);
      showSnackbar(errorMessage(error), 'danger');
    }
  };
  return (
    <>
      <Button
        size="xs"
        variant="light"
        color="orange"
        leftSection={<IconArrowBackUp size={14} />}
        loading={outcome.running}
        disabled={outcome.running}
        onClick={() => setConfirming(true)}
      >
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
