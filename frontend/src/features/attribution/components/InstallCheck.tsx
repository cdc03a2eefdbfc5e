/**
 * An integration's install check (docs/api/attribution.md "Install check"): the installs the
 * provider attributed over the last seven complete days against the installs Apple Ads reports,
 * and the likeliest cause of a gap (`finding`: no postbacks at all, installs without keywords,
 * too few installs). The provider's page shows it as an alert that says what it sees, the rate,
 * the cause and what to do (`InstallCheckAlert`); the list marks a failing check with a compact
 * badge (`InstallCheckBadge`). Nothing for a provider without a check (not connected, RevenueCat).
 */
import { Alert, Badge, List, Stack, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconChecks } from '@tabler/icons-react';
import { t, type MessageKey } from '@/i18n';
import { formatDate, formatNumber, formatPercent } from '@/lib/format';
import type { Integration } from '../api/get-integrations';
import { fill } from '../providers';

type InstallCheck = NonNullable<Integration['installCheck']>;
type Finding = NonNullable<InstallCheck['finding']>;

interface FindingView {
  color: 'red' | 'orange';
  badge: MessageKey;
  title: MessageKey;
  cause: MessageKey;
  steps: readonly MessageKey[];
}

const FINDINGS: Record<Finding, FindingView> = {
  NO_POSTBACKS: {
    color: 'red',
    badge: 'attribution.check.badge.NO_POSTBACKS',
    title: 'attribution.check.title.NO_POSTBACKS',
    cause: 'attribution.check.cause.NO_POSTBACKS',
    steps: ['attribution.check.do.NO_POSTBACKS.1', 'attribution.check.do.NO_POSTBACKS.2'],
  },
  NO_KEYWORDS: {
    color: 'orange',
    badge: 'attribution.check.badge.NO_KEYWORDS',
    title: 'attribution.check.title.NO_KEYWORDS',
    cause: 'attribution.check.cause.NO_KEYWORDS',
    steps: ['attribution.check.do.NO_KEYWORDS.1'],
  },
  LOW_RATE: {
    color: 'orange',
    badge: 'attribution.check.badge.LOW_RATE',
    title: 'attribution.check.title.LOW_RATE',
    cause: 'attribution.check.cause.LOW_RATE',
    steps: ['attribution.check.do.LOW_RATE.1', 'attribution.check.do.LOW_RATE.2'],
  },
};

/** What the check found, or null when it found nothing (or is a finding this app does not know). */
export function findingOf(check: InstallCheck | null | undefined): (FindingView & { finding: Finding }) | null {
  const finding = check?.finding;
  if (!finding || !(finding in FINDINGS)) return null;
  return { finding, ...FINDINGS[finding] };
}

/** The rate as a percentage, one decimal at most ("36.4 %"); a dash without Apple installs. */
export const rateText = (check: InstallCheck) => (check.rate === null || check.rate === undefined ? '—' : formatPercent(check.rate, 1));

/** The numbers the check compared, in a sentence. */
function seenText(check: InstallCheck, provider: string): string {
  const values = { provider, from: formatDate(check.from), to: formatDate(check.to), apple: formatNumber(check.appleInstalls, 0), tracked: formatNumber(check.trackedInstalls, 0) };
  if (check.appleInstalls === 0) return fill(t('attribution.check.noApple'), values);
  const seen = fill(t('attribution.check.seen'), { ...values, rate: rateText(check) });
  if (check.trackedInstalls === 0) return seen;
  const keyword = check.trackedWithKeyword === 0 ? t('attribution.check.noneWithKeyword') : fill(t('attribution.check.withKeyword'), { keyword: formatNumber(check.trackedWithKeyword, 0) });
  return `${seen} ${keyword}`;
}

/** The list's mark of a failing check: the cause in two words, the rate on hover. */
export function InstallCheckBadge({ item }: { item: Integration }) {
  const check = item.installCheck;
  const found = findingOf(check);
  if (!check || !found) return null;
  return (
    <Tooltip label={fill(t('attribution.check.badgeHint'), { rate: rateText(check), from: formatDate(check.from), to: formatDate(check.to) })} withArrow multiline maw={260}>
      <Badge color={found.color} variant="light" tt="none" leftSection={<IconAlertTriangle size={12} aria-hidden />} style={{ flexShrink: 0 }} data-testid="install-check-badge">
        {t(found.badge)}
      </Badge>
    </Tooltip>
  );
}

/** The provider's page: what the check sees and, when it fails, why and what to do. */
export function InstallCheckAlert({ item }: { item: Integration }) {
  const check = item.installCheck;
  if (!check) return null;
  const found = findingOf(check);
  const values = { provider: item.title };
  if (!found) {
    return (
      <Alert color="gray" variant="light" role="status" icon={<IconChecks size={18} />} title={t('attribution.check.okTitle')} data-testid="install-check">
        <Text size="sm">{seenText(check, item.title)}</Text>
      </Alert>
    );
  }
  return (
    <Alert color={found.color} variant="light" role="alert" icon={<IconAlertTriangle size={18} />} title={fill(t(found.title), values)} data-testid="install-check" data-finding={found.finding}>
      <Stack gap="xs">
        <Text size="sm">{seenText(check, item.title)}</Text>
        <Text size="sm">{fill(t(found.cause), values)}</Text>
        <div>
          <Text size="sm" fw={600}>
            {t('attribution.check.whatToDo')}
          </Text>
          <List size="sm" spacing={2} aria-label={t('attribution.check.whatToDo')}>
            {found.steps.map((step) => (
              <List.Item key={step}>{fill(t(step), values)}</List.Item>
            ))}
          </List>
        </div>
      </Stack>
    </Alert>
  );
}
