/**
 * The events tab: pick an MMP event (the names the providers sent for the app, as the event
 * settings list them), then a cost-per-event target per country, in the app's currency.
 */
import { Alert, Select, Skeleton, Stack } from '@mantine/core';
import { useState } from 'react';
import { t } from '@/i18n';
import { fill } from '@/lib/money';
import { type Country, useAppEventNames } from '../api/get-lists';
import { useEventTargets } from '../api/get-targets';
import { useSaveEvents } from '../api/save';
import { cellKey, moneyProblem } from '../draft';
import { Beside } from './Beside';
import { TargetsTable } from './TargetsTable';

interface Props {
  adamId: string;
  currency: string;
  canEdit: boolean;
  countries: readonly Country[];
}

export function EventsTab({ adamId, currency, canEdit, countries }: Props) {
  const names = useAppEventNames(adamId);
  const [picked, setPicked] = useState<string | null>(null);
  const eventName = picked ?? names.data?.[0] ?? null;
  const targets = useEventTargets(adamId, eventName);
  const save = useSaveEvents(adamId);
  if (!names.data) return <Skeleton h={200} />;
  if (names.data.length === 0) return <Alert color="gray">{t('benchmarks.noEvents')}</Alert>;
  const title = fill(t('benchmarks.col.costPerEvent'), { currency });
  const validate = (text: string) => {
    const digits = moneyProblem(text, currency);
    return digits === null ? null : digits === '0' ? t('benchmarks.badMoneyWhole') : fill(t('benchmarks.badMoney'), { digits });
  };
  return (
    <Stack gap="md">
      <Select label={t('benchmarks.eventName')} placeholder={t('benchmarks.eventPlaceholder')} data={names.data} value={eventName} onChange={setPicked} allowDeselect={false} searchable w={320} />
      {!targets.data && <Skeleton h={200} />}
      {targets.data && eventName && (
        <Beside figures={targets.data.reference}>
          <TargetsTable
            key={eventName}
            label={`${t('benchmarks.tab.events')}: ${eventName}`}
            columns={[{ title }]}
            stored={new Map(targets.data.items.map((i) => [cellKey(i.country), i.costPerEvent]))}
            validate={validate}
            canEdit={canEdit}
            countries={countries}
            onSave={(changes) => save.mutateAsync({ items: changes.map((c) => ({ adamId, eventName, country: c.country, costPerEvent: c.value, currency })) })}
          />
        </Beside>
      )}
    </Stack>
  );
}
