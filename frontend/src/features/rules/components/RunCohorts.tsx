/**
 * Which installs each Cohort metric of a run (or a preview) was judged on (`cohorts` of the
 * run, docs/api/rules.md "Conversions and cohorts"): "ROAS D7: installs of 4 Nov – 25 Nov",
 * or that no day of the window was old enough yet, so the metric had no value and nothing
 * matched on it. Nothing when the rule names no Cohort metric.
 */
import { List, Stack, Text } from '@mantine/core';
import { t } from '@/i18n';
import { formatDate } from '@/lib/format';
import type { Run } from '../api/runs';
import { metricLabel } from '../describe';

export function RunCohorts({ run }: { run: Run }) {
  const cohorts = run.cohorts ?? [];
  if (cohorts.length === 0) return null;
  return (
    <Stack gap={2} data-testid="run-cohorts">
      <Text size="xs" c="dimmed">
        {t('rules.run.cohorts')}
      </Text>
      <List size="sm" spacing={0}>
        {cohorts.map((c) => (
          <List.Item key={c.metric}>
            {c.through < c.from
              ? t('rules.run.cohortYoung').replace('{metric}', metricLabel(c.metric)).replace('{days}', String(c.ageDays))
              : t('rules.run.cohortDays')
                  .replace('{metric}', metricLabel(c.metric))
                  .replace('{from}', formatDate(c.from))
                  .replace('{through}', formatDate(c.through))}
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}
