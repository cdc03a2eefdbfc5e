import { CURRENCY_CODES, currencyDigits, currencyOf, DEFAULT_DIGITS } from './currency';

describe('the currency table', () => {
  it('lists the about 170 active ISO 4217 codes, each with 0, 2, 3 or (units of account) 4 digits', () => {
    expect(CURRENCY_CODES.length).toBeGreaterThanOrEqual(165);
    expect(CURRENCY_CODES.length).toBeLessThanOrEqual(180);
    for (const code of CURRENCY_CODES) {
      expect([0, 2, 3, 4]).toContain(currencyOf(code)?.digits);
    }
    expect(currencyOf('CLF')).toMatchObject({ digits: 4 });
    expect(currencyOf('XCG')).toMatchObject({ digits: 2, name: 'Caribbean Guilder' });
  });

  it('leaves out metals, bond units and testing codes', () => {
    for (const code of ['XAU', 'XAG', 'XBA', 'XTS', 'XXX']) expect(currencyOf(code)).toBeUndefined();
  });

  it('knows the common currencies', () => {
    expect(currencyOf('USD')).toEqual({ code: 'USD', symbol: '$', symbolNative: '$', digits: 2, rounding: 0, name: 'US Dollar' });
    expect(currencyOf('EUR')).toMatchObject({ symbol: '€', digits: 2 });
    expect(currencyOf('GBP')).toMatchObject({ symbol: '£', digits: 2, name: 'British Pound' });
    expect(currencyOf('CAD')).toMatchObject({ symbol: 'CA$', symbolNative: '$' });
    expect(currencyOf('JPY')).toMatchObject({ symbol: '¥', symbolNative: '￥', digits: 0 });
    expect(currencyOf('RUB')).toMatchObject({ symbolNative: '₽' });
  });

  it('gives the Swiss franc its 0.05 rounding and no other currency any', () => {
    expect(currencyOf('CHF')).toMatchObject({ digits: 2, rounding: 0.05 });
    expect(CURRENCY_CODES.filter((code) => currencyOf(code)?.rounding !== 0)).toEqual(['CHF']);
  });

  it.each([
    ['JPY', 0],
    ['KRW', 0],
    ['CLP', 0],
    ['KWD', 3],
    ['BHD', 3],
    ['OMR', 3],
    ['JOD', 3],
    ['USD', 2],
  ])('%s has %i digits', (code, digits) => {
    expect(currencyDigits(code)).toBe(digits);
  });

  it('looks codes up case-insensitively and defaults to two digits', () => {
    expect(currencyOf(' usd ')?.code).toBe('USD');
    expect(currencyOf('toString')).toBeUndefined();
    expect(currencyDigits('ZZZ')).toBe(DEFAULT_DIGITS);
    expect(currencyDigits(null)).toBe(DEFAULT_DIGITS);
  });
});
