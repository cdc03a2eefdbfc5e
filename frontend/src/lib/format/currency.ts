/**
 * A currency's facts for display (docs/product.md#3-currency-table) and the lookup by ISO 4217
 * code.
 */
import { CURRENCY_TABLE } from './currency-table';

export interface Currency {
  /** The sign in English text, as the org's money is shown (`$`, `CA$`, `€`, `CHF`). */
  symbol: string;
  /** The sign in the currency's own region (`￥` for JPY, `₽` for RUB). */
  symbolNative: string;
  /** Decimal digits money is floored to: 0, 2 or 3 (4 for units of account such as CLF). */
  digits: number;
  /** Cash rounding increment (0.05 for the Swiss franc), 0 for none. */
  rounding: number;
  /** English name. */
  name: string;
}

export type CurrencyCode = keyof typeof CURRENCY_TABLE;

/** Digits of money whose currency is unknown (docs/product.md#5-money: two decimals by default). */
export const DEFAULT_DIGITS = 2;

const ISO_CODE = /^[A-Z]{3}$/;

/** The table row of `code` (case-insensitive), or undefined for a code not in the table. */
export function currencyOf(code: string | null | undefined): (Currency & { code: CurrencyCode }) | undefined {
  const upper = code?.trim().toUpperCase() ?? '';
  if (!Object.hasOwn(CURRENCY_TABLE, upper)) return undefined;
  const row: Currency = CURRENCY_TABLE[upper as CurrencyCode];
  return { ...row, code: upper as CurrencyCode };
}

/** Whether `code` has the shape of an ISO 4217 code, so `Intl` accepts it as a currency. */
export function isIsoCode(code: string): boolean {
  return ISO_CODE.test(code);
}

/** The decimal digits of `code`'s money: the table's, else the default two. */
export function currencyDigits(code: string | null | undefined): number {
  return currencyOf(code)?.digits ?? DEFAULT_DIGITS;
}

export const CURRENCY_CODES = Object.keys(CURRENCY_TABLE) as CurrencyCode[];
