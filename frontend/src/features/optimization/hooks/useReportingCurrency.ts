/**
 * The user's reporting currency, kept in their saved options (options/front,
 * `reporting-currency`): null is per currency. Choosing writes only that key.
 */
import { useCallback } from 'react';
import { useFrontOptions, useUpdateFrontOption } from '@/features/options';
import { readReportingCurrency, REPORTING_CURRENCY_OPTION } from '../reporting-currency';

export function useReportingCurrency() {
  const options = useFrontOptions();
  const put = useUpdateFrontOption();
  const currency = readReportingCurrency(options.data?.[REPORTING_CURRENCY_OPTION]);
  const choose = useCallback((code: string | null) => put.mutateAsync({ key: REPORTING_CURRENCY_OPTION, update: () => code }), [put]);
  return { currency, loading: options.isLoading, choose, saving: put.isPending };
}
