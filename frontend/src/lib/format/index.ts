/** The one formatting module over `Intl`: numbers, money per currency and dates. */
export { CURRENCY_CODES, currencyDigits, currencyOf, DEFAULT_DIGITS, type Currency, type CurrencyCode } from './currency';
export { formatDate, formatDateTime, formatTimeAgo, type DateInput } from './date';
export { EMPTY, floorMoney, formatMoney, formatNumber, formatPercent, NO_DATA, type NumericInput } from './number';
