/**
 * Money fields of edits (docs/product.md#5-money) validated before sending, with the
 * rules the server and Apple Ads apply: a number, never negative (the sign is kept and the
 * amount refused, not turned positive), above 0, no more decimals than the campaign group's
 * currency has, and at least Apple's minimum in that currency (bids 0.10 USD, daily budgets
 * 1 USD, converted as `sandbox/data/apple-minimums.json` says — the table the sandbox itself
 * enforces, imported here rather than copied). One zod schema per field (`moneySchema`);
 * its messages are the field's label in the user's words. `refusalText` puts the server's
 * refusals of money fields in the same words.
 */
import { z } from 'zod';
import { t } from '@/i18n';
import { ApiError, errorMessage } from '@/lib/api-error';
import { LOCALE, resources } from '@/i18n';
import { currencyDigits, formatMoney } from '@/lib/format';
import table from '../../../../sandbox/data/apple-minimums.json';

/** The money fields edited in the tables. */
export type MoneyField = 'cptBid' | 'defaultBidAmount' | 'cpaGoal' | 'dailyBudget';

const MINIMUM_OF: Record<MoneyField, keyof typeof table.minimumsUsd | null> = {
  cptBid: 'bid',
  defaultBidAmount: 'bid',
  dailyBudget: 'dailyBudget',
  cpaGoal: null,
};

const MICROS = 1_000_000;

/**
 * Apple's smallest `field` in `currency` (as a number of the currency), or null where only
 * "above 0" applies: the US-dollar minimum times the rate, rounded up to the minor unit —
 * the sandbox's `usd_equivalent`, on the same floating-point numbers.
 */
export function minimumOf(field: string, currency: string | null): number | null {
  const kind = MINIMUM_OF[field as MoneyField];
  if (!kind) return null;
  const code = (currency ?? '').toUpperCase();
  const rates: Record<string, number> = table.usdRates;
  const rate = rates[code] ?? 1;
  const minor = table.wholeUnits.includes(code) ? MICROS : MICROS / 100;
  const micros = table.minimumsUsd[kind] * rate * MICROS;
  return (Math.ceil(micros / minor) * minor) / MICROS;
}

const messages: Record<string, string> = resources[LOCALE];

/** The field's label as the table heads it ('Bid', 'Daily budget'): its `col.<field>` message, else the field. */
export function moneyLabel(field: string): string {
  return messages[`col.${field}`] ?? field;
}

/** `text` with its `{name}` placeholders filled in. */
export const fill = (text: string, values: Record<string, string>): string => text.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');

/**
 * What a money field takes: an amount above 0 (bids, budgets, goals), 0 or more (a rule's
 * guardrail bounds), or a signed amount other than 0 (a rule's change "by −0.10").
 */
export type MoneySign = 'positive' | 'zeroOrMore' | 'nonZero';

export interface MoneyOptions {
  /** The field's name in the messages (by default the table's label of `field`). */
  label?: string;
  /** Whether Apple's minimum of `field` applies (where it has one). */
  minimum?: boolean;
  sign?: MoneySign;
}

/** Why `input` cannot be sent as `field` in `currency`, or null when it can. */
export function moneyProblem(field: string, currency: string | null, input: number | string, { label = moneyLabel(field), minimum = true, sign = 'positive' }: MoneyOptions = {}): string | null {
  const text = typeof input === 'number' ? String(input) : input.replace(/[\s\u00a0]/g, '');
  if (text === '') return fill(t('money.required'), { label });
  const value = Number(text);
  if (!/^-?\d+(\.\d*)?$/.test(text) || Number.isNaN(value)) return fill(t('money.number'), { label });
  if (sign !== 'nonZero' && (value < 0 || text.startsWith('-'))) return fill(t('money.negative'), { label });
  if (sign === 'positive' && value === 0) return fill(t('money.positive'), { label });
  if (sign === 'nonZero' && value === 0) return fill(t('money.nonZero'), { label });
  const digits = currencyDigits(currency);
  const decimals = (text.split('.')[1] ?? '').replace(/0+$/, '').length;
  if (decimals > digits) return fill(digits === 0 ? t('money.whole') : t('money.decimals'), { label, digits: String(digits), currency: currency ?? '' });
  const min = minimum ? minimumOf(field, currency) : null;
  if (min !== null && value < min - 1e-9) return fill(t('money.minimum'), { label, min: formatMoney(min, currency) });
  return null;
}

/**
 * The schema of a money field's input (a number or the typed text): its problem as the
 * issue's message, else the amount as the exact decimal text the server takes.
 */
export function moneySchema(field: string, currency: string | null, options: MoneyOptions = {}) {
  const digits = currencyDigits(currency);
  return z.union([z.number(), z.string()]).transform((input, ctx) => {
    const problem = moneyProblem(field, currency, input, options);
    if (problem !== null) {
      ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    }
    return Number(typeof input === 'number' ? input : input.replace(/[\s\u00a0]/g, '')).toFixed(digits);
  });
}

/** The first message of a failed parse, or the amount. */
export function checkMoney(field: string, currency: string | null, input: number | string): { amount: string } | { problem: string } {
  const parsed = moneySchema(field, currency).safeParse(input);
  return parsed.success ? { amount: parsed.data } : { problem: parsed.error.issues[0]?.message ?? t('money.invalid') };
}

/**
 * A server or Apple Ads refusal of money field `field` in the user's words: the minimum
 * Apple names ('bid must be at least 0.10 USD'), an amount it does not take ('bid: amount
 * must be a positive decimal, got "0"'), or its message without the wire's field name.
 */
export function moneyRefusal(field: string, currency: string | null, raw: string): string {
  const label = moneyLabel(field);
  const minimum = /at least\s+([\d.]+)/i.exec(raw);
  if (minimum?.[1]) return fill(t('money.minimum'), { label, min: formatMoney(minimum[1], currency) });
  if (/positive decimal|must be a number|not be negative/i.test(raw)) return fill(t('money.positive'), { label });
  return raw.replace(/^[a-zA-Z.]+:\s*/, '');
}

/** A refusal's text of an edit of `field` (null: not a money field) as the user reads it. */
export function refusalWords(raw: string, field: string | null, currency: string | null): string {
  return field !== null && field in MINIMUM_OF ? moneyRefusal(field, currency, raw) : raw;
}

/** The refusal of an edit of `field` as the user reads it (any thrown value). */
export function refusalText(error: unknown, field: string | null, currency: string | null): string {
  const raw = error instanceof ApiError ? (error.errors[0]?.message ?? error.message) : errorMessage(error);
  return refusalWords(raw, field, currency);
}

/**
 * The schema of an optional money field's text: empty is null (not sent), anything else is
 * checked as `moneySchema` checks it (CPA goals, the bid of every copied keyword).
 */
export function optionalMoneySchema(field: string, currency: string | null) {
  return z.union([z.number(), z.string()]).transform((input, ctx): string | null => {
    if (typeof input === 'string' && input.trim() === '') return null;
    const checked = checkMoney(field, currency, input);
    if ('problem' in checked) {
      ctx.addIssue({ code: 'custom', message: checked.problem });
      return z.NEVER;
    }
    return checked.amount;
  });
}
