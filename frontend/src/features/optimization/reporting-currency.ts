/**
 * The reporting currency (docs/currencies.md): the currency the user chose to see the
 * money of All accounts and an account's campaign groups converted to, saved in their
 * options (`reporting-currency`, a currency code; absent: per currency, no conversion). The
 * server converts at stored daily reference rates and says which (`converted`); these
 * helpers read the option and word the label every converted amount carries.
 */
import { t } from '@/i18n';
import { currencyOf, formatDate } from '@/lib/format';
import type { Converted } from './api/report';

/** The saved option's key. */
export const REPORTING_CURRENCY_OPTION = 'reporting-currency';

/** The saved reporting currency, or null (per currency) for anything not a known code. */
export function readReportingCurrency(option: unknown): string | null {
  return typeof option === 'string' ? (currencyOf(option)?.code ?? null) : null;
}

/** "≈ converted to EUR at ECB reference rates of 20/11/2026", or why nothing is converted. */
export function convertedNote(converted: Converted): string {
  if (!converted.rateDate || !converted.source) return t('currency.noRates');
  const note = t('currency.converted')
    .replace('{currency}', converted.currency)
    .replace('{source}', converted.source)
    .replace('{date}', formatDate(converted.rateDate));
  const earlier = converted.rateDate !== converted.askedDate ? ` ${t('currency.convertedEarlier').replace('{date}', formatDate(converted.askedDate))}` : '';
  const missing = converted.missing.length > 0 ? `. ${t('currency.missing').replace('{codes}', converted.missing.join(', '))}` : '';
  return `${note}${earlier}${missing}`;
}
