/**
 * `/auto-rules/{id}/runs`: a rule's runs, newest first (`GET rules/user/{id}/runs`, pages of
 * 20) with their trigger, status (and why it skipped or failed), data window and counts; a
 * run's detail (`GET rules/runs/{id}`) with every entity's matched values, old → new, result
 * and message; and Undo (`POST rules/runs/{id}/undo`, after a confirmation; only for a run
 * that applied something and was not undone), followed to the end of its task.
 */
import { Anchor, Badge, Button, Card, Drawer, Group, Modal, Pagination, Stack, Table, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useTaskOutcome } from '@/features/tasks';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { EMPTY, formatDate, formatDateTime, formatNumber } from '@/lib/format';
import { showSnackbar } from '@/lib/notifications';
import { useGroupCampaigns } from '../api/campaigns';
import { ruleKeys } from '../api/keys';
import { useRules } from '../api/rules';
import { canUndo, RUNS_PAGE_SIZE, useRun, useRuns, useUndoRun, type Run } from '../api/runs';
import { outcomeColor, statusLabel, triggerLabel } from '../describe';
import { useRuleScope } from '../hooks/useRuleScope';
import { NoGroup, RULES_PATH } from './common';
import { ItemsTable } from './Results';
import { RunCohorts } from './RunCohorts';

const at = (seconds: number | null | undefined) => (seconds ? formatDateTime(seconds * 1000) : EMPTY);

function Counts({ run }: { run: Run }) {
  return (
    <Text size="sm">
      {t('rules.counts')
        .replace('{matched}', formatNumber(run.matched, 0))
        .replace('{applied}', formatNumber(run.applied, 0))
        .replace('{refused}', formatNumber(run.refused, 0))
        .replace('{skipped}', formatNumber(run.skipped, 0))}
    </Text>
  );
}

function StatusBadge({ run }: { run: Run }) {
  return (
    <Stack gap={2}>
      <Group gap={4}>
        <Badge size="sm" variant="light" color={outcomeColor(run.status)}>
          {statusLabel(run.status)}
        </Badge>
        {run.undoneBy && (
          <Badge size="sm" variant="outline" color="gray">
            {t('rules.run.undone')}
          </Badge>
        )}
      </Group>
      {run.reason && (
        <Text size="xs" c="dimmed">
          {run.reason}
        </Text>
      )}
    </Stack>
  );
}

function UndoButton({ run, ruleId }: { run: Run; ruleId: string }) {
  const client = useQueryClient();
  const undo = useUndoRun();
  const [confirming, setConfirming] = useState(false);
  const outcome = useTaskOutcome((task) => {
    void client.invalidateQueries({ queryKey: ruleKeys.runsOf(ruleId) });
    if (run.id) void client.invalidateQueries({ queryKey: ruleKeys.run(run.id) });
    // The rules list's last run is now the undo.
    void client.invalidateQueries({ queryKey: [...ruleKeys.all, 'list'] });
    if (task.error) showSnackbar(task.error, 'danger');
    else showSnackbar(t('rules.undo.done'));
  });
  const confirm = async () => {
    if (!run.id) return;
    try {
      outcome.start(await undo.mutateAsync(run.id));
      setConfirming(false);
      showSnackbar(t('rules.undo.started'));
    } catch (error) {
      setConfirming(false);
      showSnackbar(errorMessage(error), 'danger');
    }
  };
  return (
    <>
      <Button size="xs" variant="light" color="orange" disabled={!canUndo(run) || outcome.running} loading={outcome.running} onClick={() => setConfirming(true)}>
        {t('rules.undo')}
      </Button>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t('rules.undo.title')} closeButtonProps={{ 'aria-label': t('common.close') }}>
        <Stack gap="md">
          <Text size="sm">{t('rules.undo.text').replace('{applied}', formatNumber(run.applied, 0))}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('common.cancel')}
            </Button>
            <Button color="orange" onClick={() => void confirm()} loading={undo.isPending}>
              {t('rules.undo.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

function RunDetail({ runId, ruleId, currency, campaigns }: { runId: string; ruleId: string; currency: string | null; campaigns: ReturnType<typeof useGroupCampaigns>['data'] }) {
  const run = useRun(runId);
  if (run.error) return <Text c="red">{errorMessage(run.error)}</Text>;
  if (!run.data) return <Text c="dimmed">{t('common.loading')}</Text>;
  const r = run.data;
  return (
    <Stack gap="sm">
      <Group gap="lg" align="flex-start">
        <StatusBadge run={r} />
        <Stack gap={0}>
          <Text size="xs" c="dimmed">
            {t('rules.run.window')}
          </Text>
          <Text size="sm">{r.window ? `${formatDate(r.window.startDate)} – ${formatDate(r.window.endDate)}` : EMPTY}</Text>
        </Stack>
        <Stack gap={0}>
          <Text size="xs" c="dimmed">
            {t('rules.run.newestDay')}
          </Text>
          <Text size="sm">{formatDate(r.newestCompleteDay)}</Text>
        </Stack>
        <RunCohorts run={r} />
        <Counts run={r} />
        <UndoButton run={r} ruleId={ruleId} />
      </Group>
      <ItemsTable items={r.items ?? []} currency={currency} campaigns={campaigns ?? []} label={t('rules.run.items')} />
    </Stack>
  );
}

export function RunHistory() {
  const { ruleId = '' } = useParams();
  const scope = useRuleScope();
  const { group } = scope;
  const rules = useRules(group);
  const campaigns = useGroupCampaigns(group);
  const [page, setPage] = useState(1);
  const runs = useRuns(ruleId, page);
  const [open, setOpen] = useState<string | null>(null);
  if (!group) return <NoGroup scope={scope} />;
  const rule = rules.data?.find((r) => r.id === ruleId);
  const total = runs.data?.total ?? 0;
  return (
    <Stack gap="md" maw={1200}>
      <Group justify="space-between">
        <Stack gap={0}>
          <Title order={2}>{t('rules.historyTitle')}</Title>
          <Text c="dimmed" size="sm">
            {rule?.name ?? ruleId}
          </Text>
        </Stack>
        <Anchor component={Link} to={RULES_PATH} size="sm">
          {t('rules.backToList')}
        </Anchor>
      </Group>
      {runs.error ? (
        <Text c="red" role="alert">
          {errorMessage(runs.error)}
        </Text>
      ) : !runs.data ? (
        <Text c="dimmed">{t('common.loading')}</Text>
      ) : runs.data.items.length === 0 ? (
        <Text c="dimmed">{t('rules.noRuns')}</Text>
      ) : (
        <Card withBorder padding={0}>
          <Table.ScrollContainer minWidth={800}>
            <Table highlightOnHover verticalSpacing="sm" aria-label={t('rules.historyTitle')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('rules.run.startedAt')}</Table.Th>
                  <Table.Th>{t('rules.run.trigger')}</Table.Th>
                  <Table.Th>{t('rules.run.status')}</Table.Th>
                  <Table.Th>{t('rules.run.window')}</Table.Th>
                  <Table.Th>{t('rules.run.counts')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {runs.data.items.map((run) => (
                  <Table.Tr key={run.id ?? run.period ?? String(run.startedAt)} data-testid={`run-${run.id ?? ''}`}>
                    <Table.Td>{at(run.startedAt)}</Table.Td>
                    <Table.Td>{run.trigger ? triggerLabel(run.trigger) : EMPTY}</Table.Td>
                    <Table.Td>
                      <StatusBadge run={run} />
                    </Table.Td>
                    <Table.Td>{run.window ? `${formatDate(run.window.startDate)} – ${formatDate(run.window.endDate)}` : EMPTY}</Table.Td>
                    <Table.Td>
                      <Counts run={run} />
                    </Table.Td>
                    <Table.Td>
                      <Group gap="xs" justify="flex-end" wrap="nowrap">
                        <Button size="xs" variant="default" onClick={() => setOpen(run.id ?? null)} disabled={!run.id}>
                          {t('rules.run.details')}
                        </Button>
                        <UndoButton run={run} ruleId={ruleId} />
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      )}
      {total > RUNS_PAGE_SIZE && <Pagination total={Math.ceil(total / RUNS_PAGE_SIZE)} value={page} onChange={setPage} />}
      <Drawer opened={open !== null} onClose={() => setOpen(null)} position="right" size="min(100%, 1200px)" title={t('rules.run.detailTitle')} closeButtonProps={{ 'aria-label': t('common.close') }}>
        {open && <RunDetail runId={open} ruleId={ruleId} currency={group.currency} campaigns={campaigns.data} />}
      </Drawer>
    </Stack>
  );
}
