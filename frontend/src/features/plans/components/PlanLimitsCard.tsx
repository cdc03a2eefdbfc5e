/**
 * The plan's limits and what the workspace uses of each (docs/api/plans.md "Limits per
 * plan", `plan/current`'s `limits` and `usage`): "used / limit" with a bar per limited row;
 * no number means no limit. Ad groups are limited per creation, so that row shows the limit
 * only. At or past a limit (issue 42 item 8) the card says what that means: apps and
 * developers arrive with a connection's syncs, so a workspace can pass their limits without
 * anything being refused; what is then blocked is adding more (another account, another
 * campaign group; more campaigns, rules), while everything there keeps working.
 */
import { Alert, Card, List, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { t, type MessageKey } from '@/i18n';
import { formatNumber } from '@/lib/format';
import type { PlanLimits, PlanUsage } from '../api/plan';

const ROWS: readonly [keyof PlanLimits, MessageKey][] = [
  ['apps', 'plans.limit.apps'],
  ['developers', 'plans.limit.developers'],
  ['campaigns', 'plans.limit.campaigns'],
  ['keywordGroups', 'plans.limit.keywordGroups'],
  ['rules', 'plans.limit.rules'],
  ['rulesCampaigns', 'plans.limit.rulesCampaigns'],
];

/** The bar's colour: red at the limit, orange from 80 %, else teal. */
export function usageColor(used: number, limit: number): string {
  if (used >= limit) return 'red';
  return used >= limit * 0.8 ? 'orange' : 'teal';
}

/** `template` with each `{name}` replaced by its value. */
function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

function usageText(used: number | null, limit: number | null): string {
  if (used === null) return limit === null ? t('plans.noLimit') : `${formatNumber(limit)} ${t('plans.perCreation')}`;
  if (limit === null) return fill(t('plans.usageUnlimited'), { used: formatNumber(used) });
  return fill(t('plans.usage'), { used: formatNumber(used), limit: formatNumber(limit) });
}

/** What being at or past one limit means, in words; null while under it. */
export function limitNotice(field: keyof PlanLimits, label: MessageKey, used: number | null, limit: number | null): string | null {
  if (used === null || limit === null || used < limit) return null;
  const values = { used: formatNumber(used), limit: formatNumber(limit) };
  const synced = field === 'apps' || field === 'developers';
  if (synced) return fill(t(used > limit ? `plans.over.${field}` : `plans.at.${field}`), values);
  return fill(t(used > limit ? 'plans.over.created' : 'plans.at.created'), { ...values, what: t(label) });
}

export function PlanLimitsCard({ limits, usage }: { limits: PlanLimits; usage: PlanUsage }) {
  const notices = ROWS.map(([field, label]) => limitNotice(field, label, usage[field] ?? null, limits[field] ?? null)).filter((n): n is string => n !== null);
  return (
    <Card withBorder padding="lg" data-testid="plan-limits">
      <Stack gap="md">
        <div>
          <Text fw={600}>{t('plans.limitsTitle')}</Text>
          <Text size="sm" c="dimmed">
            {t('plans.limitsHint')}
          </Text>
        </div>
        <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="md">
          {ROWS.map(([field, label]) => {
            // No limit, or no use counted (per creation), reads as null.
            const limit = limits[field] ?? null;
            const used = usage[field] ?? null;
            return (
              <Stack key={field} gap={4}>
                <Text size="sm" c="dimmed">
                  {t(label)}
                </Text>
                <Text fw={600} data-testid={`limit-${field}`}>
                  {usageText(used, limit)}
                </Text>
                {limit !== null && used !== null && (
                  <Progress
                    value={limit > 0 ? Math.min(100, (used / limit) * 100) : 100}
                    color={usageColor(used, limit)}
                    aria-label={t(label)}
                    data-testid={`usage-bar-${field}`}
                  />
                )}
              </Stack>
            );
          })}
        </SimpleGrid>
        {notices.length > 0 && (
          <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} title={t('plans.over.title')} data-testid="limit-notice">
            <Stack gap="xs">
              <List size="sm" spacing={4}>
                {notices.map((notice) => (
                  <List.Item key={notice}>{notice}</List.Item>
                ))}
              </List>
              <Text size="sm">{t('plans.over.stillWorks')}</Text>
            </Stack>
          </Alert>
        )}
      </Stack>
    </Card>
  );
}
