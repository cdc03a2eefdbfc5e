/**
 * The currency table (spec §3): symbol, native symbol, decimal digits, rounding and name per
 * ISO 4217 code. One source for server and browser: `common/data/currencies.json`, which the
 * Rust report engine embeds too (`searchdeck_common::money::currency`), so money is floored
 * to the same digits on both sides. Edit that file, not this one.
 */
import type { Currency } from './currency';
import TABLE from '../../../../common/data/currencies.json';

export const CURRENCY_TABLE: Record<keyof typeof TABLE, Currency> = TABLE;
