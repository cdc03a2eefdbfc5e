/**
 * Numbers as the form holds them (text, typed) and the checker that turns them into the
 * body's, with an issue at the server's field path for each one it refuses.
 */
import { z } from 'zod';
import { t } from '@/i18n';
import { currencyDigits } from '@/lib/format';
import { moneyProblem, type MoneySign } from '@/lib/money';

/** A number typed in a field, or a number a default put there. */
export const typed = z.union([z.string(), z.number()]);

/** The text of a typed number without spaces (thin and no-break ones included). */
export const clean = (input: string | number) => (typeof input === 'number' ? String(input) : input.replace(/[\s\u00a0\u202f]/g, ''));

const DECIMAL = /^-?\d+(\.\d+)?$/;

export { fractionToPercent, percentToFraction, shiftDecimal } from '@/lib/decimal';

export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (_, key: string) => String(values[key] ?? ''));
}

export type Path = (string | number)[];

/** Collects issues at paths while a form is turned into a body. */
export class Checker {
  constructor(private readonly ctx: z.RefinementCtx) {}
  failed = false;

  issue(path: Path, message: string) {
    this.failed = true;
    this.ctx.addIssue({ code: 'custom', path, message });
  }

  /** An issue, and nothing to send. */
  fail(path: Path, message: string): null {
    this.issue(path, message);
    return null;
  }

  /** A decimal number (`min` and `max` bound it, `positive` refuses 0), as clean text. */
  decimal(path: Path, input: string | number, { min, max, positive = false, integer = false }: { min?: number; max?: number; positive?: boolean; integer?: boolean } = {}): string | null {
    const text = clean(input).replace(/^\+/, '');
    if (text === '') return this.fail(path, t('rules.error.required'));
    if (!DECIMAL.test(text)) return this.fail(path, t('rules.error.number'));
    const value = Number(text);
    if (integer && !Number.isInteger(value)) return this.fail(path, t('rules.error.whole'));
    if (positive && value <= 0) return this.fail(path, t('rules.error.positive'));
    if (min !== undefined && value < min) return this.fail(path, fill(t('rules.error.min'), { min }));
    if (max !== undefined && value > max) return this.fail(path, fill(t('rules.error.max'), { max }));
    return text;
  }

  /** A whole number within `min`..`max`. */
  integer(path: Path, input: string | number, min: number, max: number): number | null {
    const text = this.decimal(path, input, { integer: true });
    if (text === null) return null;
    const value = Number(text);
    if (value < min || value > max) return this.fail(path, fill(t('rules.error.range'), { min, max }));
    return value;
  }

  /** An amount of money in `currency` (the quick edits' rules), as the server's decimal text. */
  money(path: Path, input: string | number, currency: string | null, label: string, sign: MoneySign = 'positive'): string | null {
    const problem = moneyProblem('amount', currency, input, { label, minimum: false, sign });
    if (problem !== null) return this.fail(path, problem);
    return Number(clean(input)).toFixed(currencyDigits(currency));
  }

  /** Optional money: empty is null. */
  optionalMoney(path: Path, input: string | number, currency: string | null, label: string, sign: MoneySign = 'positive'): string | null {
    return clean(input) === '' ? null : this.money(path, input, currency, label, sign);
  }
}
