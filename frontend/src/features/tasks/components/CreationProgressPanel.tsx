/**
 * The progress of a campaign creation or copy task as the suggester and the duplicate modal
 * show it (docs/product.md#2-keyword-suggester: a progress bar of groups created out of total and
 * campaigns created out of total): the task polled every 1000 ms, both bars, the phase, the items
 * Apple refused with its messages, and on failure the failure message
 * (docs/product.md#8-campaign-creation-failure).
 * `onEnd` hears once when it ends.
 */
import { Alert, Group, Progress, Stack, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { t } from '@/i18n';
import { formatNumber } from '@/lib/format';
import { useTask } from '../api/get-task';
import { creationOutcome, creationProgressOf, share, type CreationOutcome } from '../creation-progress';

function Bar({ label, done, total, color, testId }: { label: string; done: number; total: number; color: string; testId: string }) {
  return (
    <Stack gap={2} data-testid={testId}>
      <Group justify="space-between">
        <Text size="sm">{label}</Text>
        <Text size="sm" fw={600} style={{ fontVariantNumeric: 'tabular-nums' }}>
          {formatNumber(done, 0)} / {formatNumber(total, 0)}
        </Text>
      </Group>
      <Progress value={share(done, total)} color={color} size="md" aria-label={label} />
    </Stack>
  );
}

export function CreationProgressPanel({ taskId, onEnd }: { taskId: string; onEnd?: (outcome: CreationOutcome) => void }) {
  const { data: task, error } = useTask(taskId);
  const outcome = task ? creationOutcome(task) : null;
  const ended = outcome !== null && outcome.kind !== 'running';
  const told = useRef(false);
  const onEndRef = useRef(onEnd);
  useEffect(() => {
    onEndRef.current = onEnd;
  });
  useEffect(() => {
    if (!ended || told.current || !outcome) return;
    told.current = true;
    onEndRef.current?.(outcome);
  }, [ended, outcome]);

  if (!task || !outcome) {
    return (
      <Stack gap="xs" data-testid="creation-progress">
        <Text size="sm" c="dimmed">
          {error ? error.message : t('creation.starting')}
        </Text>
        <Progress value={0} size="md" aria-label={t('creation.starting')} />
      </Stack>
    );
  }
  const progress = outcome.kind === 'running' ? creationProgressOf(task.details) : outcome.progress;
  const color = outcome.kind === 'failed' ? 'red' : outcome.kind === 'done' ? 'green' : 'blue';
  return (
    <Stack gap="sm" data-testid="creation-progress" aria-live="polite">
      <Text size="sm" fw={600} data-testid="creation-phase">
        {outcome.kind === 'failed' ? t('tasks.failed') : task.message || t('creation.starting')}
      </Text>
      <Bar label={t('creation.groups')} done={progress.groupsCreated} total={progress.groupsTotal} color={color} testId="creation-groups" />
      <Bar label={t('creation.campaigns')} done={progress.campaignsCreated} total={progress.campaignsTotal} color={color} testId="creation-campaigns" />
      {progress.keywordsTotal > 0 && (
        <Text size="xs" c="dimmed" data-testid="creation-keywords">
          {t('creation.keywords')}: {formatNumber(progress.keywordsCreated, 0)} / {formatNumber(progress.keywordsTotal, 0)}
        </Text>
      )}
      {outcome.kind === 'failed' && (
        <Alert color="red" variant="light" title={outcome.message ?? t('creation.failed')} data-testid="creation-failed">
          <Stack gap={4}>
            {!outcome.message && <Text size="sm">{t('creation.failedHint')}</Text>}
            {outcome.progress.errorsMethod.map((e, i) => (
              <Text key={i} size="sm">
                {e.name ? (
                  <Text span fw={600}>
                    {e.name}:{' '}
                  </Text>
                ) : null}
                {e.message ?? e.method}
              </Text>
            ))}
          </Stack>
        </Alert>
      )}
      {progress.rejected.length > 0 && (
        <Alert color="orange" variant="light" title={t('creation.rejected')} data-testid="creation-rejected">
          <Stack gap={2}>
            {progress.rejected.map((r, i) => (
              <Text key={i} size="sm">
                <Text span fw={600}>
                  {[r.campaign, r.adGroup, r.text].filter(Boolean).join(' › ')}
                  {r.matchType ? ` (${r.matchType})` : ''}
                </Text>
                {': '}
                {r.message ?? t('bulk.refused')}
              </Text>
            ))}
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}

