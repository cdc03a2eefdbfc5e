/**
 * `/auto-rules`: the rules of the active campaign group (`GET rules/all?accountId&orgId`) as a
 * table: the enabled switch (`PUT rules/user/{id}` with `enabled` flipped), name, level,
 * campaigns, frequency in words, the last run (time, outcome, counts) and each rule's
 * actions (Edit, Run now — a task followed to its end —, History, Delete after a
 * confirmation); several rules selected are deleted at once (`DELETE rules/user/many`).
 * Without rules, a call to create the first. Owners and admins also set the Slack webhook.
 */
import { ActionIcon, Badge, Button, Card, Checkbox, Group, Menu, Modal, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { IconDots, IconPlus, IconRobot } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useSession } from '@/features/auth';
import { useTaskOutcome } from '@/features/tasks';
import { t, tn } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { EMPTY, formatDateTime, formatNumber } from '@/lib/format';
import { showSnackbar } from '@/lib/notifications';
import { ruleKeys } from '../api/keys';
import { useDeleteRules, useRules, useToggleRule, type GroupScope } from '../api/rules';
import { useRunRuleNow } from '../api/runs';
import { conditionsText, frequencyText, levelLabel, outcomeColor, statusLabel, triggerLabel, windowText } from '../describe';
import { useRuleScope } from '../hooks/useRuleScope';
import type { Rule } from '../schema';
import { editPath, NEW_RULE_PATH, NoGroup, runsPath } from './common';
import { SlackSection } from './SlackSection';

/**
 * A rule's last run in the list: when, and what it was. An undo is its own entry ('Undo by
 * …', the changes it set back), never a run that 'applied' them; a run set back by an undo
 * says so; a Run now says who pressed it.
 */
function LastRun({ run }: { run: Rule['lastRun'] }) {
  if (!run) return <Text size="sm" c="dimmed">{t('rules.neverRun')}</Text>;
  const who = run.by ?? t('rules.last.someone');
  const undo = run.trigger === 'UNDO';
  const counts = undo
    ? t('rules.last.setBack').replace('{applied}', formatNumber(run.applied, 0)) + (run.refused > 0 ? ` · ${t('rules.last.refused').replace('{refused}', formatNumber(run.refused, 0))}` : '')
    : t('rules.counts')
        .replace('{matched}', formatNumber(run.matched, 0))
        .replace('{applied}', formatNumber(run.applied, 0))
        .replace('{refused}', formatNumber(run.refused, 0))
        .replace('{skipped}', formatNumber(run.skipped, 0));
  return (
    <Stack gap={2} data-testid="last-run">
      <Group gap={6} wrap="nowrap">
        <Text size="sm">{formatDateTime(run.at * 1000)}</Text>
        {undo ? (
          <Badge size="sm" variant="light" color={run.status === 'DONE' ? 'orange' : outcomeColor(run.status)}>
            {run.status === 'DONE' ? triggerLabel('UNDO') : `${triggerLabel('UNDO')} · ${statusLabel(run.status)}`}
          </Badge>
        ) : (
          <Badge size="sm" variant="light" color={outcomeColor(run.status)}>
            {statusLabel(run.status)}
          </Badge>
        )}
        {run.undoneBy && (
          <Badge size="sm" variant="outline" color="gray">
            {t('rules.run.undone')}
          </Badge>
        )}
      </Group>
      <Text size="xs" c="dimmed">
        {counts}
      </Text>
      {run.trigger === 'MANUAL' && (
        <Text size="xs" c="dimmed">
          {t('rules.last.runNowBy').replace('{by}', who)}
        </Text>
      )}
      {undo && (
        <Text size="xs" c="dimmed">
          {t('rules.last.undoBy').replace('{by}', who)}
        </Text>
      )}
    </Stack>
  );
}

function RowActions({ rule, onDelete, scope }: { rule: Rule; onDelete: (ids: string[]) => void; scope: GroupScope }) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const run = useRunRuleNow();
  const outcome = useTaskOutcome((task) => {
    void client.invalidateQueries({ queryKey: ruleKeys.list(scope.accountId, scope.orgId) });
    void client.invalidateQueries({ queryKey: ruleKeys.runsOf(rule.id) });
    if (task.error) showSnackbar(task.error, 'danger');
    else showSnackbar(t('rules.runDone').replace('{name}', rule.name));
  });
  const runNow = async () => {
    try {
      outcome.start(await run.mutateAsync(rule.id));
      showSnackbar(t('rules.runStarted').replace('{name}', rule.name));
    } catch (error) {
      showSnackbar(errorMessage(error), 'danger');
    }
  };
  return (
    <Group gap={4} wrap="nowrap" justify="flex-end">
      {outcome.running && (
        <Badge size="sm" variant="light" color="blue">
          {t('rules.running')}
        </Badge>
      )}
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" aria-label={t('rules.rowActions').replace('{name}', rule.name)}>
            <IconDots size={16} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item onClick={() => void navigate(editPath(rule.id))}>{t('rules.edit')}</Menu.Item>
          <Menu.Item onClick={() => void runNow()} disabled={run.isPending || outcome.running}>
            {t('rules.runNow')}
          </Menu.Item>
          <Menu.Item onClick={() => void navigate(runsPath(rule.id))}>{t('rules.history')}</Menu.Item>
          <Menu.Divider />
          <Menu.Item color="red" onClick={() => onDelete([rule.id])}>
            {t('rules.delete')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}

function DeleteModal({ ids, rules, onClose, scope }: { ids: string[] | null; rules: Rule[]; onClose: (deleted: boolean) => void; scope: GroupScope }) {
  const remove = useDeleteRules(scope);
  const names = (ids ?? []).map((id) => rules.find((r) => r.id === id)?.name ?? id);
  const confirm = async () => {
    try {
      const deleted = await remove.mutateAsync(ids ?? []);
      showSnackbar(tn('rules.deleted', deleted, formatNumber(deleted, 0)));
      onClose(true);
    } catch (error) {
      showSnackbar(errorMessage(error), 'danger');
    }
  };
  return (
    <Modal opened={ids !== null} onClose={() => onClose(false)} title={t('rules.deleteTitle')} closeButtonProps={{ 'aria-label': t('common.close') }}>
      <Stack gap="md">
        <Text size="sm">{tn('rules.deleteText', names.length, formatNumber(names.length, 0))}</Text>
        <Text size="sm" fw={600}>
          {names.join(', ')}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => onClose(false)}>
            {t('common.cancel')}
          </Button>
          <Button color="red" onClick={() => void confirm()} loading={remove.isPending}>
            {t('rules.delete')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function RulesTable({ rules, scope }: { rules: Rule[]; scope: GroupScope }) {
  const toggle = useToggleRule(scope);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [deleting, setDeleting] = useState<string[] | null>(null);
  const present = new Set(rules.map((r) => r.id));
  const chosen = [...selected].filter((id) => present.has(id));
  const all = rules.length > 0 && chosen.length === rules.length;
  const flip = async (rule: Rule) => {
    try {
      await toggle.mutateAsync(rule);
    } catch (error) {
      showSnackbar(errorMessage(error), 'danger');
    }
  };
  return (
    <>
      {chosen.length > 0 && (
        <Group gap="sm" data-testid="bulk-bar">
          <Text size="sm">{tn('rules.selectedCount', chosen.length, formatNumber(chosen.length, 0))}</Text>
          <Button size="xs" color="red" variant="light" onClick={() => setDeleting(chosen)}>
            {t('rules.deleteSelected')}
          </Button>
          <Button size="xs" variant="subtle" onClick={() => setSelected(new Set())}>
            {t('table.clearSelection')}
          </Button>
        </Group>
      )}
      <Card withBorder padding={0}>
        <Table.ScrollContainer minWidth={900}>
          <Table highlightOnHover verticalSpacing="sm" aria-label={t('rules.tableLabel')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={40}>
                  <Checkbox
                    size="xs"
                    aria-label={t('rules.selectAll')}
                    checked={all}
                    indeterminate={chosen.length > 0 && !all}
                    onChange={() => setSelected(all ? new Set() : new Set(rules.map((r) => r.id)))}
                  />
                </Table.Th>
                <Table.Th w={70}>{t('rules.col.enabled')}</Table.Th>
                <Table.Th>{t('rules.col.name')}</Table.Th>
                <Table.Th>{t('rules.col.level')}</Table.Th>
                <Table.Th>{t('rules.col.campaigns')}</Table.Th>
                <Table.Th>{t('rules.col.frequency')}</Table.Th>
                <Table.Th>{t('rules.col.lastRun')}</Table.Th>
                <Table.Th w={60} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rules.map((rule) => (
                <Table.Tr key={rule.id} data-testid={`rule-${rule.id}`}>
                  <Table.Td>
                    <Checkbox
                      size="xs"
                      aria-label={t('rules.selectRule').replace('{name}', rule.name)}
                      checked={selected.has(rule.id)}
                      onChange={(event) => {
                        const next = new Set(selected);
                        if (event.currentTarget.checked) next.add(rule.id);
                        else next.delete(rule.id);
                        setSelected(next);
                      }}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Switch
                      aria-label={t('rules.toggle').replace('{name}', rule.name)}
                      checked={rule.enabled}
                      disabled={toggle.isPending && toggle.variables.id === rule.id}
                      onChange={() => void flip(rule)}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Stack gap={0}>
                      <Text size="sm" fw={500} component={Link} to={editPath(rule.id)}>
                        {rule.name}
                      </Text>
                      <Text size="xs" c="dimmed" lineClamp={2} data-testid="rule-conditions">
                        {conditionsText(rule.conditions, rule.currency ?? null)}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {windowText(rule.window)}
                      </Text>
                    </Stack>
                  </Table.Td>
                  <Table.Td>{levelLabel(rule.level)}</Table.Td>
                  <Table.Td>{rule.campaignIds.length === 0 ? EMPTY : formatNumber(rule.campaignIds.length, 0)}</Table.Td>
                  <Table.Td>{frequencyText(rule.frequency)}</Table.Td>
                  <Table.Td>
                    <LastRun run={rule.lastRun} />
                  </Table.Td>
                  <Table.Td>
                    <RowActions rule={rule} onDelete={setDeleting} scope={scope} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Card>
      <DeleteModal
        ids={deleting}
        rules={rules}
        scope={scope}
        onClose={(deleted) => {
          if (deleted) setSelected(new Set());
          setDeleting(null);
        }}
      />
    </>
  );
}

function EmptyRules() {
  return (
    <Card withBorder padding="xl">
      <Stack align="center" gap="sm">
        <IconRobot size={40} stroke={1.5} />
        <Title order={3}>{t('rules.emptyTitle')}</Title>
        <Text c="dimmed" ta="center" maw={520}>
          {t('rules.emptyText')}
        </Text>
        <Button component={Link} to={NEW_RULE_PATH} leftSection={<IconPlus size={16} />}>
          {t('rules.create')}
        </Button>
      </Stack>
    </Card>
  );
}

export function RulesScreen() {
  const scope = useRuleScope();
  const { group } = scope;
  const { user } = useSession();
  const rules = useRules(group);
  const manager = user?.permission === 'owner' || user?.permission === 'admin';
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {group ? t('rules.inGroup').replace('{group}', group.orgName) : ''}
        </Text>
        {group && (
          <Button component={Link} to={NEW_RULE_PATH} leftSection={<IconPlus size={16} />}>
            {t('rules.create')}
          </Button>
        )}
      </Group>
      {!group ? (
        <NoGroup scope={scope} />
      ) : rules.error ? (
        <Text c="red" role="alert">
          {errorMessage(rules.error)}
        </Text>
      ) : !rules.data ? (
        <Text c="dimmed">{t('common.loading')}</Text>
      ) : rules.data.length === 0 ? (
        <EmptyRules />
      ) : (
        <RulesTable rules={rules.data} scope={group} />
      )}
      {manager && <SlackSection />}
    </Stack>
  );
}
