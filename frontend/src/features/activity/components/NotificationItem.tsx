/**
 * One notification (docs/product.md#2-activity-log, docs/product.md#3-notification): its title and
 * type, who made it (a member's name and email, the rule's name, or Apple Ads), when, its campaign
 * (or 'N campaigns') with the search text marked, and its changes old → new. Unread ones are marked
 * and bolder; clicking one (or Enter on it) marks it read. Details opens the drawer of its changes
 * entity by entity; editors can undo what can be set back.
 */
import { Badge, Box, Button, Card, Group, Stack, Text } from '@mantine/core';
import { IconRobot, IconUser, IconWorld } from '@tabler/icons-react';
import type { KeyboardEvent } from 'react';
import type { Task } from '@/features/tasks';
import { t } from '@/i18n';
import { formatDateTime } from '@/lib/format';
import type { Notification } from '../api/notifications';
import { campaignsOf, fieldLabel, groupDetail, groupText, pressedBy, tagLabel, valueText, whoOf } from '../describe';
import { notificationElementId } from '../hooks/useDeepLink';
import { Highlighted } from './Highlighted';
import { UndoButton } from './UndoButton';

function Who({ n }: { n: Notification }) {
  const who = whoOf(n);
  const by = pressedBy(n);
  const Icon = n.source === 'rule' ? IconRobot : n.source === 'apple_ads' ? IconWorld : IconUser;
  return (
    <Group gap={4} wrap="nowrap" data-testid="notification-who">
      <Icon size={14} />
      <Text size="sm">{who.name}</Text>
      {who.email && (
        <Text size="sm" c="dimmed">
          {who.email}
        </Text>
      )}
      {by && (
        <Text size="sm" c="dimmed" data-testid="notification-run-now-by">
          {`· ${t('activity.runNowBy').replace('{by}', by)}`}
        </Text>
      )}
    </Group>
  );
}

/** The campaign line; none for what touched no campaign (a team change, issue 42 item 15). */
function Campaigns({ n, search }: { n: Notification; search: string }) {
  const { names, text } = campaignsOf(n);
  if (names.length === 0) return null;
  const matching = search.trim() && names.length > 1 ? names.filter((name) => name.toLocaleLowerCase().includes(search.trim().toLocaleLowerCase())) : [];
  return (
    <Text size="sm" data-testid="notification-campaign">
      <Text span size="sm" c="dimmed">
        {t('activity.campaign')}{' '}
      </Text>
      {names.length > 1 ? text : <Highlighted text={text} search={search} />}
      {matching.length > 0 && (
        <>
          {' ('}
          {matching.map((name, i) => (
            <span key={name}>
              {i > 0 && ', '}
              <Highlighted text={name} search={search} />
            </span>
          ))}
          {')'}
        </>
      )}
    </Text>
  );
}

function Changes({ n }: { n: Notification }) {
  if (n.count === 1 && (n.oldData || n.saveData)) {
    const field = n.saveData?.field ?? n.oldData?.field;
    const currency = n.saveData?.currency ?? n.oldData?.currency;
    const entity = n.saveData?.entity ?? n.oldData?.entity;
    return (
      <Text size="sm" data-testid="notification-change">
        {entity && <Text span fw={500} size="sm">{`${entity} · `}</Text>}
        {`${fieldLabel(field)}: ${valueText(n.oldData?.value, currency)} → ${valueText(n.saveData?.value, currency)}`}
      </Text>
    );
  }
  return (
    <Stack gap={0}>
      {(n.notificationsData ?? []).map((group, i) => (
        <Text size="sm" key={`${group.typeOfChange ?? ''}-${group.action ?? ''}-${i}`} data-testid="notification-change">
          {groupText(group)}
          {groupDetail(group) !== null && `: ${groupDetail(group)}`}
        </Text>
      ))}
    </Stack>
  );
}

interface Props {
  n: Notification;
  search: string;
  highlighted: boolean;
  canUndo: boolean;
  /** The notification whose undo is running, if any. */
  undoing: string | null;
  onUndoStarted: (taskId: Task['id'], notificationId: string) => void;
  onRead: (n: Notification) => void;
  onDetails: (n: Notification) => void;
}

export function NotificationItem({ n, search, highlighted, canUndo, undoing, onUndoStarted, onRead, onDetails }: Props) {
  const unread = !n.read;
  return (
    <Card
      withBorder
      padding="md"
      id={notificationElementId(n._id)}
      data-testid={notificationElementId(n._id)}
      data-unread={unread || undefined}
      data-highlighted={highlighted || undefined}
      aria-label={n.title}
      component="article"
      onClick={unread ? () => onRead(n) : undefined}
      tabIndex={unread ? 0 : undefined}
      onKeyDown={
        unread
          ? (event: KeyboardEvent) => {
              if (event.target === event.currentTarget && (event.key === 'Enter' || event.key === ' ')) {
                event.preventDefault();
                onRead(n);
              }
            }
          : undefined
      }
      style={{
        cursor: unread ? 'pointer' : undefined,
        borderLeft: unread ? '3px solid var(--mantine-color-blue-6)' : undefined,
        background: highlighted ? 'var(--mantine-color-yellow-light)' : unread ? 'var(--mantine-color-blue-light)' : undefined,
        transition: 'background 200ms ease',
      }}
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="md">
        <Stack gap={4} miw={0}>
          <Group gap="xs" wrap="wrap">
            {unread && <Box w={8} h={8} bg="blue.6" style={{ borderRadius: '50%' }} aria-label={t('activity.unread')} role="img" />}
            <Text fw={unread ? 700 : 500}>{n.title}</Text>
            <Badge size="sm" variant="light" color="gray">
              {tagLabel(n.tag)}
            </Badge>
            {n.undo?.undoneBy && (
              <Badge size="sm" variant="outline" color="gray">
                {t('activity.undone')}
              </Badge>
            )}
          </Group>
          <Group gap="md" wrap="wrap">
            <Who n={n} />
            <Text size="sm" c="dimmed" data-testid="notification-when">
              {formatDateTime(n.dateCreated)}
            </Text>
          </Group>
          <Campaigns n={n} search={search} />
          <Changes n={n} />
        </Stack>
        <Group gap="xs" wrap="nowrap">
          {n.count > 0 && (
            <Button size="xs" variant="default" onClick={() => onDetails(n)}>
              {t('activity.details')}
            </Button>
          )}
          {canUndo && n.undo?.possible && !n.undo.undoneBy && <UndoButton notification={n} running={undoing === n._id} busy={undoing !== null} onStarted={onUndoStarted} />}
        </Group>
      </Group>
    </Card>
  );
}
