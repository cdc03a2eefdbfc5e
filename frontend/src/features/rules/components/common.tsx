/** Pieces shared by the rules screens: their addresses and the page without a campaign group. */
import { Select, Stack, Text } from '@mantine/core';
import { t } from '@/i18n';
import type { RuleScopeState } from '../hooks/useRuleScope';

export const RULES_PATH = '/auto-rules';
export const NEW_RULE_PATH = '/auto-rules/new';
export const editPath = (id: string) => `${RULES_PATH}/${encodeURIComponent(id)}/edit`;
export const runsPath = (id: string) => `${RULES_PATH}/${encodeURIComponent(id)}/runs`;

/**
 * Rules act in one campaign group: without one chosen, the account's groups to pick from
 * (or, without an account, where to choose one).
 */
export function NoGroup({ scope }: { scope: RuleScopeState }) {
  if (scope.isLoading) return <Text c="dimmed">{t('common.loading')}</Text>;
  if (scope.choices.length === 0) return <Text c="dimmed">{t('rules.noGroup')}</Text>;
  return (
    <Stack gap="xs" maw={360}>
      <Text c="dimmed">{t('rules.pickGroup')}</Text>
      <Select
        label={t('rules.group')}
        data={scope.choices.map((o) => ({ value: o.orgId, label: o.displayName }))}
        value={null}
        onChange={(orgId) => orgId && scope.choose(orgId)}
      />
    </Stack>
  );
}
