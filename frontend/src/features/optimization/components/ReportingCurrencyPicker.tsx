/**
 * The reporting-currency picker of All accounts and an account's campaign groups: "Per
 * currency" (no conversion, the default) or any currency of the currency table, saved in the
 * user's options. With a currency chosen, the totals and the chart show money converted to
 * it, labelled as converted.
 */
import { Select } from '@mantine/core';
import { useMemo } from 'react';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { CURRENCY_CODES, currencyOf } from '@/lib/format';
import { showSnackbar } from '@/lib/notifications';
import { useReportingCurrency } from '../hooks/useReportingCurrency';

/** Value of the "per currency" choice (a Select value cannot be null and listed). */
const PER_CURRENCY = 'none';

export function ReportingCurrencyPicker() {
  const { currency, loading, choose, saving } = useReportingCurrency();
  const data = useMemo(
    () => [
      { value: PER_CURRENCY, label: t('currency.perCurrency') },
      ...CURRENCY_CODES.map((code) => ({ value: code, label: `${code} · ${currencyOf(code)?.name ?? code}` })),
    ],
    [],
  );
  return (
    <Select
      size="xs"
      w={260}
      label={t('currency.reporting')}
      data={data}
      value={currency ?? PER_CURRENCY}
      disabled={loading || saving}
      searchable
      allowDeselect={false}
      nothingFoundMessage={t('select.nothingFound')}
      onChange={(next) => {
        if (!next) return;
        choose(next === PER_CURRENCY ? null : next).catch((e: unknown) => showSnackbar(errorMessage(e), 'danger'));
      }}
      comboboxProps={{ withinPortal: true }}
      data-testid="reporting-currency"
    />
  );
}
