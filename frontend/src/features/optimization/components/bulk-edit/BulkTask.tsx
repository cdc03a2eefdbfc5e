/** A bulk edit's task under the bulk-edit bar: its progress and counts, and once it ends the items Apple Ads refused; the table is read again then. */
import { Alert, Badge, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { taskProgress, useTask } from '@/features/tasks';
import { t } from '@/i18n';
import { formatNumber } from '@/lib/format';
import type { EntityId } from '@/lib/ids';
import { refusalWords } from '@/lib/money';
import { bulkDetailsOf } from '../../api/bulk-edit';
import { optimizationKeys } from '../../api/keys';

/** The progress of the last bulk edit started here, and its refused items once it ends. */
export function BulkTask({ taskId, title, field, currency, nameOf, onClose }: { taskId: string; title: string | null; field: string | null; currency: string | null; nameOf: (id: EntityId) => string | null; onClose: () => void }) {
  const { data: task } = useTask(taskId);
  const queryClient = useQueryClient();
  const ended = task ? task.finish || task.error !== null : false;
  useEffect(() => {
    if (ended) void queryClient.invalidateQueries({ queryKey: [...optimizationKeys.all, 'report'] });
  }, [ended, queryClient]);
  if (!task) return null;
  const details = bulkDetailsOf(task.details);
  const percent = taskProgress(task);
  return (
    <Stack gap={6} data-testid="bulk-task">
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm" fw={600}>
          {title ?? details?.operation ?? t('bulk.running')}
          {' · '}
          {ended ? (task.error ? t('tasks.failed') : t('bulk.finished')) : t('bulk.running')}
        </Text>
        {ended && (
          <Button size="compact-xs" variant="subtle" color="gray" onClick={onClose}>
            {t('common.close')}
          </Button>
        )}
      </Group>
      <Progress value={percent} color={task.error ? 'red' : ended ? 'green' : 'blue'} size="sm" aria-label={t('bulk.running')} />
      {details && (
        <Group gap="xs" data-testid="bulk-counts">
          <Badge variant="light" color="green" tt="none">
            {formatNumber(details.applied, 0)} {t('bulk.applied')}
          </Badge>
          <Badge variant="light" color="gray" tt="none">
            {formatNumber(details.skipped, 0)} {t('bulk.skipped')}
          </Badge>
          <Badge variant="light" color={details.refused > 0 ? 'red' : 'gray'} tt="none">
            {formatNumber(details.refused, 0)} {t('bulk.refused')}
          </Badge>
          <Text size="xs" c="dimmed">
            {formatNumber(details.done, 0)} / {formatNumber(details.total, 0)}
          </Text>
        </Group>
      )}
      {task.error && (
        <Text size="sm" c="red">
          {task.error}
        </Text>
      )}
      {details && details.errors.length > 0 && (
        <Alert color="red" variant="light" title={t('bulk.refusedTitle')} data-testid="bulk-refused">
          <Stack gap={2}>
            {details.errors.map((item, index) => (
              <Text key={`${item.id}/${index}`} size="sm">
                <Text span fw={600}>
                  {item.text ?? nameOf(item.id) ?? item.id}
                </Text>
                {': '}
                {item.message ? refusalWords(item.message, field, currency) : t('bulk.refused')}
              </Text>
            ))}
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}
