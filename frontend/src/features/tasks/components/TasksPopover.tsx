/** The sidebar's background-tasks button and the popover listing GET /api/tasks. */
import { ActionIcon, Button, Indicator, Popover, ScrollArea, Stack, Text } from '@mantine/core';
import { IconListCheck } from '@tabler/icons-react';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { useTasks } from '../api/get-tasks';
import { isRunning } from '../api/task';
import { TaskItem, type TaskPlace } from './TaskItem';

/** `place` shows where each task works (the app passes the connections' `ConnectionPlace`). */
export function TasksPopover({ compact, place }: { compact: boolean; place?: TaskPlace }) {
  const { data: tasks = [], error } = useTasks();
  const running = tasks.filter(isRunning).length;
  const label = t('tasks.title');
  const icon = <IconListCheck size={18} />;
  return (
    <Popover position="right-end" width={320} shadow="md" withArrow>
      <Popover.Target>
        <Indicator disabled={running === 0} label={running} size={16} offset={4}>
          {compact ? (
            <ActionIcon variant="subtle" color="gray" aria-label={label}>
              {icon}
            </ActionIcon>
          ) : (
            <Button variant="subtle" color="gray" justify="flex-start" fullWidth leftSection={icon}>
              {label}
            </Button>
          )}
        </Indicator>
      </Popover.Target>
      <Popover.Dropdown aria-label={label}>
        <ScrollArea.Autosize mah={360}>
          <Stack gap="md">
            {error && <Text size="sm" c="red">{errorMessage(error)}</Text>}
            {!error && tasks.length === 0 && <Text size="sm" c="dimmed">{t('tasks.empty')}</Text>}
            {tasks.map((task) => (
              <TaskItem key={task.id} task={task} place={place} />
            ))}
          </Stack>
        </ScrollArea.Autosize>
      </Popover.Dropdown>
    </Popover>
  );
}
