/**
 * Decimal text moved between a fraction and a percentage exactly (no floating point): the
 * server's ratios (ROAS, rates) are fractions, the screens type and show percentages.
 */

/** `text` (a decimal) with its point moved `shift` places (−2: percent → fraction), exactly. */
export function shiftDecimal(text: string, shift: number): string {
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? text.slice(1) : text).split('.');
  let digits = whole + fraction;
  let point = whole.length + shift;
  if (point <= 0) {
    digits = '0'.repeat(1 - point) + digits;
    point = 1;
  }
  if (point > digits.length) digits += '0'.repeat(point - digits.length);
  const intPart = digits.slice(0, point).replace(/^0+(?=\d)/, '');
  const fracPart = digits.slice(point).replace(/0+$/, '');
  const result = fracPart ? `${intPart}.${fracPart}` : intPart;
  return negative && /[1-9]/.test(result) ? `-${result}` : result;
}

export const percentToFraction = (percent: string) => shiftDecimal(percent, -2);
export const fractionToPercent = (fraction: string) => shiftDecimal(fraction, 2);
