/**
 * The collection under way (docs/product.md#2-keyword-suggester, docs/product.md#4-suggester): the
 * phase the job has reached ('Looking for App Store suggestions' … 'Excluding keywords without
 * traffic...') over a progress bar (the task's percent, docs/product.md#4-background-tasks), the
 * phases passed (each one the polls missed shown in order, `usePhaseReplay`, ending with 'Keywords
 * collecting completed!'), the candidates found so far, the expected duration, and the Stop button
 * (confirmed first).
 */
import { Button, Card, Group, List, Loader, Progress, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck, IconPlayerStop } from '@tabler/icons-react';
import { useEffect } from 'react';
import { zCollectProgress } from '@/api/generated/zod.gen';
import { detailsAs, taskProgress } from '@/features/tasks';
import { t } from '@/i18n';
import { formatNumber } from '@/lib/format';
import { showSnackbar } from '@/lib/notifications';
import { usePhaseReplay } from '../hooks/usePhaseReplay';
import type { Suggester } from '../hooks/useSuggester';

/** The first phase, shown until the first poll answers. */
const FIRST_PHASE = 'Looking for App Store suggestions';

export function CollectingPanel({ suggester, duration }: { suggester: Suggester; duration: string }) {
  const { collecting, form } = suggester.state;
  const task = collecting?.task ?? null;
  const ended = collecting?.ended !== undefined;
  // The finished task's last message ends the replay, should its phases not hold it yet.
  const phases = task ? (ended && task.message && task.phases.at(-1) !== task.message ? [...task.phases, task.message] : task.phases) : [];
  const replay = usePhaseReplay(phases, collecting?.resumed ?? false);
  const { completeCollection } = suggester;
  const finishedText = task?.message || t('suggester.completed');
  useEffect(() => {
    if (!ended || !replay.caughtUp) return;
    completeCollection();
    // docs/product.md#8-suggester-failure: the finished text (a default when the task has none).
    showSnackbar(finishedText);
  }, [ended, replay.caughtUp, completeCollection, finishedText]);
  const percent = task ? (ended && !replay.caughtUp ? Math.min(99, taskProgress(task)) : taskProgress(task)) : 0;
  const phase = replay.phase ?? (task?.message || FIRST_PHASE);
  const candidates = detailsAs(task, zCollectProgress)?.candidates ?? null;
  return (
    <Card withBorder padding="xl" data-testid="collecting">
      <Stack gap="lg" maw={640} mx="auto" w="100%" py="lg">
        <Stack gap={4} align="center">
          <Title order={3} size="h4">
            {collecting ? t('suggester.collecting') : t('common.loading')}
          </Title>
          {form.app && (
            <Text size="sm" c="dimmed">
              {form.app.name}
              {form.country ? ` · ${form.country}` : ''}
            </Text>
          )}
        </Stack>
        {collecting ? (
          <>
            <Stack gap={6}>
              <Group justify="space-between" wrap="nowrap">
                <Text size="sm" fw={500} data-testid="collect-phase">
                  {phase}
                </Text>
                <Text size="sm" fw={600} c="blue" data-testid="collect-percent">
                  {percent}%
                </Text>
              </Group>
              <Progress value={percent} size="lg" radius="xl" striped animated aria-label={phase} />
              <Group justify="space-between">
                <Text size="xs" c="dimmed">
                  {t('suggester.hint.inProgress')}
                </Text>
                <Text size="xs" c="dimmed" data-testid="collect-duration">
                  {t('suggester.duration')}: {duration}
                </Text>
              </Group>
              {replay.shown.length > 1 && (
                <List size="xs" spacing={2} c="dimmed" data-testid="collect-passed" aria-label={t('suggester.phasesPassed')} icon={<ThemeIcon size={14} radius="xl" color="teal" variant="light"><IconCheck size={10} /></ThemeIcon>}>
                  {replay.shown.slice(0, -1).map((p, i) => (
                    <List.Item key={`${i}-${p}`}>{p}</List.Item>
                  ))}
                </List>
              )}
              {candidates !== null && (
                <Text size="xs" c="dimmed" data-testid="collect-candidates">
                  {formatNumber(candidates, 0)} {t('suggester.candidates')}
                </Text>
              )}
            </Stack>
            <Group justify="center">
              <Button color="red" variant="light" leftSection={<IconPlayerStop size={16} />} onClick={suggester.stopModal.open}>
                {t('suggester.stop')}
              </Button>
            </Group>
          </>
        ) : (
          <Group justify="center">
            <Loader aria-label={t('common.loading')} />
          </Group>
        )}
      </Stack>
    </Card>
  );
}
