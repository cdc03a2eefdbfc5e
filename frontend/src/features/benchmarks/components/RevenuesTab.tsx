/**
 * The revenue tab: a ROAS target (revenue ÷ spend) per country and cohort window, D0 to D30,
 * typed and shown in percent as every ROAS on the screens; the API's is a fraction (120 % is
 * `"1.2"`), converted exactly.
 */
import { Skeleton, Stack, Text } from '@mantine/core';
import { t } from '@/i18n';
import { fractionToPercent, percentToFraction } from '@/lib/decimal';
import type { Country } from '../api/get-lists';
import { useRoasTargets } from '../api/get-targets';
import { useSaveRoas } from '../api/save';
import { COHORTS, cellKey, roasProblem } from '../draft';
import { Beside } from './Beside';
import { TargetsTable } from './TargetsTable';

const COLUMNS = COHORTS.map((id) => ({ id, title: `ROAS ${id.slice(4)}` }));

export function RevenuesTab({ adamId, canEdit, countries }: { adamId: string; canEdit: boolean; countries: readonly Country[] }) {
  const targets = useRoasTargets(adamId);
  const save = useSaveRoas(adamId);
  if (!targets.data) return <Skeleton h={200} />;
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t('benchmarks.roasHint')}
      </Text>
      <Beside figures={targets.data.reference}>
        <TargetsTable
          label={t('benchmarks.tab.revenues')}
          columns={COLUMNS}
          stored={new Map(targets.data.items.map((i) => [cellKey(i.country, i.cohort), fractionToPercent(i.roas)]))}
          validate={(text) => (roasProblem(text) ? t('benchmarks.badRoas') : null)}
          canEdit={canEdit}
          countries={countries}
          onSave={(changes) => save.mutateAsync({ items: changes.map((c) => ({ adamId, cohort: c.column ?? 'roasD0', country: c.country, roas: c.value === null ? null : percentToFraction(c.value) })) })}
        />
      </Beside>
    </Stack>
  );
}
