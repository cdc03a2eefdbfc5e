import { EMPTY, floorMoney, formatMoney, formatNumber, formatPercent, NO_DATA } from './number';

describe('formatMoney (spec §5)', () => {
  it.each([
    [1234.5, 'USD', '$1 234.50'],
    [1234567.899, 'USD', '$1 234 567.89'],
    [0, 'USD', '$0.00'],
    [0.29, 'USD', '$0.29'],
    [1.005, 'USD', '$1.00'],
    [4.35, 'USD', '$4.35'],
    [999.999, 'EUR', '€999.99'],
    [12.5, 'GBP', '£12.50'],
    [1000, 'CAD', 'CA$1 000.00'],
  ])('%p %s → %s: two decimals, floored, space between thousands', (value, currency, expected) => {
    expect(formatMoney(value, currency)).toBe(expected);
  });

  it.each([
    [1234.9, 'JPY', '¥1 234'],
    [99.99, 'KRW', '₩99'],
    [1234.5678, 'KWD', 'KWD 1 234.567'],
    [0.0019, 'BHD', 'BHD 0.001'],
    [12.3456, 'TND', 'TND 12.345'],
  ])('%p %s → %s: the currency’s own digits (0 or 3)', (value, currency, expected) => {
    expect(formatMoney(value, currency)).toBe(expected);
  });

  it.each([
    [12.34, 'CHF 12.30'],
    [12.39, 'CHF 12.35'],
    [12.35, 'CHF 12.35'],
    [1234.04, 'CHF 1 234.00'],
  ])('%p CHF → %s: Swiss francs floored to 0.05', (value, expected) => {
    expect(formatMoney(value, 'CHF')).toBe(expected);
  });

  it('floors rather than rounds, also below zero', () => {
    expect(formatMoney(2.999, 'USD')).toBe('$2.99');
    expect(formatMoney(-2.001, 'USD')).toBe('-$2.01');
  });

  it('reads decimal strings as Apple sends amounts', () => {
    expect(formatMoney('1500.258', 'usd')).toBe('$1 500.25');
    expect(formatMoney(' 7 ', 'EUR')).toBe('€7.00');
  });

  it("passes 'No data' and other text through and shows a dash when empty", () => {
    expect(formatMoney(NO_DATA, 'USD')).toBe('No data');
    expect(formatMoney('n/a', 'USD')).toBe('n/a');
    expect(formatMoney(null, 'USD')).toBe(EMPTY);
    expect(formatMoney(undefined, 'USD')).toBe(EMPTY);
    expect(formatMoney('', 'USD')).toBe(EMPTY);
    expect(formatMoney('  ', 'USD')).toBe(EMPTY);
    expect(formatMoney(Number.NaN, 'USD')).toBe(EMPTY);
  });

  it('uses two decimals and no sign without a currency', () => {
    expect(formatMoney(1234.567)).toBe('1 234.56');
    expect(formatMoney(1234.567, null)).toBe('1 234.56');
    expect(formatMoney(5, 'not a code')).toBe('5.00');
  });

  it('shows the code of a currency outside the table with two decimals', () => {
    expect(formatMoney(1234.567, 'ZZZ')).toBe('ZZZ 1 234.56');
  });
});

describe('floorMoney', () => {
  it.each([
    [0.29, 'USD', 0.29],
    [2.999, 'USD', 2.99],
    [1234.9, 'JPY', 1234],
    [1.23456, 'KWD', 1.234],
    [12.34, 'CHF', 12.3],
    [12.349, undefined, 12.34],
  ])('%p %s → %p', (value, currency, expected) => {
    expect(floorMoney(value, currency)).toBe(expected);
  });
});

describe('formatNumber', () => {
  it.each([
    [1234567, '1 234 567'],
    [1234.5, '1 234.5'],
    [0.125, '0.13'],
    [-9876.543, '-9 876.54'],
    [0, '0'],
  ])('%p → %s', (value, expected) => {
    expect(formatNumber(value)).toBe(expected);
  });

  it('keeps at most the digits asked for', () => {
    expect(formatNumber(1.23456, 3)).toBe('1.235');
    expect(formatNumber(1.5, 0)).toBe('2');
  });

  it('passes text through and shows a dash when empty', () => {
    expect(formatNumber(NO_DATA)).toBe('No data');
    expect(formatNumber(null)).toBe(EMPTY);
    expect(formatNumber('42')).toBe('42');
  });
});

describe('formatPercent', () => {
  it.each([
    [0.12345, '12.35%'],
    [1, '100%'],
    [12.5, '1 250%'],
    [0, '0%'],
  ])('%p → %s', (value, expected) => {
    expect(formatPercent(value)).toBe(expected);
  });

  it('passes text through and shows a dash when empty', () => {
    expect(formatPercent(NO_DATA)).toBe('No data');
    expect(formatPercent(undefined)).toBe(EMPTY);
  });
});
