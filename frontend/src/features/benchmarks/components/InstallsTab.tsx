/** The installs tab: a cost-per-install target per country, in the app's currency. */
import { t } from '@/i18n';
import { fill } from '@/lib/money';
import type { Country } from '../api/get-lists';
import type { InstallBenchmarks } from '../api/get-targets';
import { useSaveInstalls } from '../api/save';
import { cellKey, moneyProblem } from '../draft';
import { Beside } from './Beside';
import { TargetsTable } from './TargetsTable';

interface Props {
  adamId: string;
  data: InstallBenchmarks;
  canEdit: boolean;
  countries: readonly Country[];
}

export function InstallsTab({ adamId, data, canEdit, countries }: Props) {
  const save = useSaveInstalls(adamId);
  const currency = data.currency ?? 'USD';
  const title = fill(t('benchmarks.col.costPerInstall'), { currency });
  const stored = new Map(data.items.map((i) => [cellKey(i.country), i.costPerInstall]));
  const validate = (text: string) => {
    const digits = moneyProblem(text, currency);
    return digits === null ? null : digits === '0' ? t('benchmarks.badMoneyWhole') : fill(t('benchmarks.badMoney'), { digits });
  };
  return (
    <Beside figures={data.reference}>
      <TargetsTable
        label={t('benchmarks.tab.installs')}
        columns={[{ title }]}
        stored={stored}
        validate={validate}
        canEdit={canEdit}
        countries={countries}
        onSave={(changes) => save.mutateAsync({ items: changes.map((c) => ({ adamId, country: c.country, costPerInstall: c.value, currency })) })}
      />
    </Beside>
  );
}
