/**
 * One background task: its message (with running dots), state and progress bar; for a bulk
 * edit also its counts and the items Apple Ads refused, with its message.
 */
import { Group, Progress, Stack, Text } from '@mantine/core';
import { z } from 'zod';
import { t } from '@/i18n';
import { formatNumber, formatPercent } from '@/lib/format';
import { isRunning, type Task } from '../api/task';
import { useAnimatedDots } from '../hooks/useAnimatedDots';
import { progressTone, taskProgress, TONE_COLORS } from '../progress';

const bulkSchema = z.object({
  applied: z.number(),
  refused: z.number(),
  skipped: z.number(),
  errors: z.array(z.object({ id: z.number(), text: z.string().nullish(), message: z.string().nullish() })).catch([]),
});

/** A bulk edit's counts and refused items, when the task is one and has them. */
export function bulkResultOf(task: Task): z.infer<typeof bulkSchema> | null {
  if (task.kind !== 'bulk-edit') return null;
  const parsed = bulkSchema.safeParse(task.details);
  return parsed.success ? parsed.data : null;
}

/** How many refused items the popover lists before saying how many more there are. */
const REFUSED_SHOWN = 5;

export function TaskItem({ task }: { task: Task }) {
  const running = isRunning(task);
  const dots = useAnimatedDots(running);
  const percent = taskProgress(task);
  const tone = progressTone(task);
  const bulk = bulkResultOf(task);
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
