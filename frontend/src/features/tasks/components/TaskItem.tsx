/**
 * One background task: what it does (a bulk edit's operation, 'Raise the bid of 4 keywords
 * by 10%', else its message, with running dots), where (the connection and campaign group)
 * and when (its start), its state and progress bar; once it ends its outcome, and for a bulk
 * edit its counts and the items Apple Ads refused, with its message.
 */
import { Group, Progress, Stack, Text } from '@mantine/core';
import type { ComponentType } from 'react';
import { zBulkEditProgress, zCollectProgress } from '@/api/generated/zod.gen';
import { t } from '@/i18n';
import { formatDateTime, formatNumber, formatPercent } from '@/lib/format';
import { detailsAs, isRunning, type Task } from '../api/task';
import { useAnimatedDots } from '../hooks/useAnimatedDots';
import { progressTone, taskProgress, TONE_COLORS } from '../progress';

/** A bulk edit's counts and refused items, when the task is one and has them. */
export function bulkResultOf(task: Task) {
  return task.kind === 'bulk-edit' ? detailsAs(task, zBulkEditProgress) : null;
}

/** What a task does: a keyword collection, a bulk edit's operation, else its message. */
export function taskTitle(task: Task): string {
  // A keyword collection names itself; its message is the phase it has reached.
  if (task.kind === 'collect-keywords') return t('tasks.collectKeywords');
  const operation = bulkResultOf(task)?.operation;
  return operation ? operation : task.message;
}

/**
 * What shows where a task works (its connection and campaign group) followed by `separator`,
 * or nothing: the connections are not this feature's, so the app passes it in.
 */
export type TaskPlace = ComponentType<{ accountId: string | null | undefined; orgId: string | null | undefined; separator: string }>;

/** How many refused items the popover lists before saying how many more there are. */
const REFUSED_SHOWN = 5;

export function TaskItem({ task, place: Place }: { task: Task; place?: TaskPlace }) {
  const running = isRunning(task);
  const dots = useAnimatedDots(running);
  const percent = taskProgress(task);
  const tone = progressTone(task);
  const bulk = bulkResultOf(task);
  const candidates = task.kind === 'collect-keywords' ? (detailsAs(task, zCollectProgress)?.candidates ?? null) : null;
  const title = taskTitle(task);
  return (
    <Stack gap={4} data-testid="task">
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text size="sm" fw={500} lineClamp={2}>
          {title}
          {running && title === task.message ? dots : ''}
        </Text>
        <Text size="xs" c={TONE_COLORS[tone]} fw={600}>
          {task.error ? t('tasks.failed') : running ? formatPercent(percent / 100, 0) : t('tasks.done')}
        </Text>
      </Group>
      <Text size="xs" c="dimmed" data-testid="task-where-when">
        {Place && <Place accountId={task.accountId} orgId={task.orgId} separator=" · " />}
        {formatDateTime(task.createdAt)}
      </Text>
      {title !== task.message && !bulk && (
        <Text size="xs" c="dimmed">
          {task.message}
          {dots}
        </Text>
      )}
      {candidates !== null && (
        <Text size="xs" c="dimmed" data-testid="task-candidates">
          {formatNumber(candidates, 0)} {t('tasks.candidates')}
        </Text>
      )}
      {task.error && (
        <Text size="xs" c="red">
          {task.error}
        </Text>
      )}
      {bulk && (
        <Text size="xs" c="dimmed" data-testid="task-bulk-counts">
          {formatNumber(bulk.applied, 0)} {t('bulk.applied')} · {formatNumber(bulk.skipped, 0)} {t('bulk.skipped')} · {formatNumber(bulk.refused, 0)} {t('bulk.refused')}
        </Text>
      )}
      {bulk && bulk.errors.length > 0 && (
        <Stack gap={0} data-testid="task-refused">
          {bulk.errors.slice(0, REFUSED_SHOWN).map((item, index) => (
            <Text key={`${item.id}/${index}`} size="xs" c="red" lineClamp={2}>
              {item.text ?? item.id}: {item.message ?? t('bulk.refused')}
            </Text>
          ))}
          {bulk.errors.length > REFUSED_SHOWN && (
            <Text size="xs" c="dimmed">
              +{formatNumber(bulk.errors.length - REFUSED_SHOWN, 0)}
            </Text>
          )}
        </Stack>
      )}
      <Progress.Root size="sm">
        <Progress.Section value={percent} color={TONE_COLORS[tone]} aria-label={task.message} />
      </Progress.Root>
    </Stack>
  );
}
