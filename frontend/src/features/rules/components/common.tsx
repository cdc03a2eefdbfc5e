/** Pieces shared by the rules screens: their addresses and the page without a campaign group. */
import { Text } from '@mantine/core';
import { t } from '@/i18n';

export const RULES_PATH = '/auto-rules';
export const NEW_RULE_PATH = '/auto-rules/new';
export const editPath = (id: string) => `${RULES_PATH}/${encodeURIComponent(id)}/edit`;
export const runsPath = (id: string) => `${RULES_PATH}/${encodeURIComponent(id)}/runs`;

/** Rules act in one campaign group: without one chosen in the header there is nothing to show. */
export function NoGroup({ loading }: { loading: boolean }) {
  return <Text c="dimmed">{loading ? t('common.loading') : t('rules.noGroup')}</Text>;
}
