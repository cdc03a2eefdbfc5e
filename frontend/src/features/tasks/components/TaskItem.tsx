/** One background task: its message (with running dots), state and progress bar. */
import { Group, Progress, Stack, Text } from '@mantine/core';
import { t } from '@/i18n';
import { formatPercent } from '@/lib/format';
import { isRunning, type Task } from '../api/task';
import { useAnimatedDots } from '../hooks/useAnimatedDots';
import { progressTone, taskProgress, TONE_COLORS } from '../progress';

export function TaskItem({ task }: { task: Task }) {
  const running = isRunning(task);
  const dots = useAnimatedDots(running);
  const percent = taskProgress(task);
  const tone = progressTone(task);
  return (
    <Stack gap={4} data-testid="task">
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text size="sm" lineClamp={2}>
          {task.message}
          {dots}
        </Text>
        <Text size="xs" c={TONE_COLORS[tone]} fw={600}>
          {task.error ? t('tasks.failed') : running ? formatPercent(percent / 100, 0) : t('tasks.done')}
        </Text>
      </Group>
      {task.error && (
        <Text size="xs" c="red">
          {task.error}
        </Text>
      )}
      <Progress.Root size="sm">
        <Progress.Section value={percent} color={TONE_COLORS[tone]} aria-label={task.message} />
      </Progress.Root>
    </Stack>
  );
}
