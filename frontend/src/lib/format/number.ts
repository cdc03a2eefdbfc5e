/**
 * Numbers and money as the tables show them (docs/product.md#5-money,
 * docs/product.md#9-currencies): English digits, thousands separated by a space,
 * a dot before the decimals. Money is floored to its currency's digits (two by default), the Swiss
 * franc to 0.05, and carries the currency sign of the org. 'No data' (and any other text that is
 * not a number) passes through; empty shows a dash.
 */
import { currencyOf, DEFAULT_DIGITS, isIsoCode } from './currency';

/** What the server sends where a metric has no value. */
export const NO_DATA = 'No data';
/** What an empty cell shows. */
export const EMPTY = '—';

/** A value as it comes from the API: a number, a decimal string (Apple's amounts), or nothing. */
export type NumericInput = number | string | null | undefined;

type Parsed = { kind: 'number'; value: number } | { kind: 'text'; text: string };

function parse(input: NumericInput): Parsed {
  if (input === null || input === undefined) return { kind: 'text', text: EMPTY };
  if (typeof input === 'number') return Number.isFinite(input) ? { kind: 'number', value: input } : { kind: 'text', text: EMPTY };
  const trimmed = input.trim();
  if (trimmed === '') return { kind: 'text', text: EMPTY };
  const value = Number(trimmed);
  return Number.isFinite(value) ? { kind: 'number', value } : { kind: 'text', text: input };
}

const formatters = new Map<string, Intl.NumberFormat>();

/** Formatters are costly to build and a big table formats thousands of cells: keep them. */
function formatter(options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = JSON.stringify(options);
  let cached = formatters.get(key);
  if (!cached) {
    cached = new Intl.NumberFormat('en-US', options);
    formatters.set(key, cached);
  }
  return cached;
}

/** English parts with a space between thousands and plain spaces elsewhere. */
function render(parts: Intl.NumberFormatPart[], sign?: string): string {
  return parts
    .map((part) => {
      if (part.type === 'group') return ' ';
      if (part.type === 'currency' && sign !== undefined) return sign;
      if (part.type === 'literal') return part.value.replace(/[\u00a0\u202f]/g, ' ');
      return part.value;
    })
    .join('');
}

/** The options that floor a value to `digits` decimals in steps of `rounding` (0: none). */
function flooring(digits: number, rounding: number): Intl.NumberFormatOptions {
  const increment = rounding > 0 ? Math.round(rounding * 10 ** digits) : 1;
  return {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
    roundingMode: 'floor',
    ...(increment > 1 ? { roundingIncrement: increment as Intl.NumberFormatOptions['roundingIncrement'] } : {}),
  };
}

/** A plain number with at most `maxDigits` decimals (rounded half away from zero): `1 234.5`. */
export function formatNumber(input: NumericInput, maxDigits = DEFAULT_DIGITS): string {
  const parsed = parse(input);
  if (parsed.kind === 'text') return parsed.text;
  return render(formatter({ maximumFractionDigits: maxDigits }).formatToParts(parsed.value));
}

/** A ratio as a percentage with at most `maxDigits` decimals: 0.12345 → `12.35%`. */
export function formatPercent(input: NumericInput, maxDigits = DEFAULT_DIGITS): string {
  const parsed = parse(input);
  if (parsed.kind === 'text') return parsed.text;
  return render(formatter({ style: 'percent', maximumFractionDigits: maxDigits }).formatToParts(parsed.value));
}

/**
 * Money in `currency` (the active org's ISO code): floored to the currency's digits, with its
 * sign: `$1 234.56`, `¥1 235`, `KWD 12.345`, `CHF 12.30`. Without a known currency: two
 * decimals and no sign.
 */
export function formatMoney(input: NumericInput, currency?: string | null): string {
  const parsed = parse(input);
  if (parsed.kind === 'text') return parsed.text;
  const row = currencyOf(currency);
  const code = row?.code ?? currency?.trim().toUpperCase() ?? '';
  const digits = row?.digits ?? DEFAULT_DIGITS;
  const rounding = flooring(digits, row?.rounding ?? 0);
  if (!isIsoCode(code)) return render(formatter(rounding).formatToParts(parsed.value));
  const parts = formatter({ style: 'currency', currency: code, currencyDisplay: 'symbol', ...rounding }).formatToParts(parsed.value);
  return render(parts, row?.symbol ?? code);
}

/** The amount to store or send: floored to the currency's digits and rounding, as a number. */
export function floorMoney(value: number, currency?: string | null): number {
  const row = currencyOf(currency);
  const options = flooring(row?.digits ?? DEFAULT_DIGITS, row?.rounding ?? 0);
  return Number(formatter({ ...options, useGrouping: false }).format(value));
}
