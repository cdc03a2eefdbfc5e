import { buildCsv, csvField, csvFileName, csvValue } from './csv';

describe('CSV export', () => {
  it('quotes fields that need it and defuses formulas', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a, b')).toBe('"a, b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('@me')).toBe("'@me");
    expect(csvField('-5')).toBe('-5');
    expect(csvField('-cmd')).toBe("'-cmd");
  });

  it('writes numbers as numbers: dot decimal, no separators or signs, empty for no data', () => {
    expect(csvValue('CAMPAIGNS', 'localSpend', 12345.678, 'USD')).toBe('12345.67');
    expect(csvValue('CAMPAIGNS', 'localSpend', 1234.5, 'JPY')).toBe('1234');
    expect(csvValue('CAMPAIGNS', 'localSpend', '1255.23', 'USD')).toBe('1255.23');
    expect(csvValue('CAMPAIGNS', 'localSpend', -3.5, 'USD')).toBe('-3.5');
    expect(csvValue('CAMPAIGNS', 'localSpend', null, 'USD')).toBe('');
    expect(csvValue('CAMPAIGNS', 'localSpend', 'No data', 'USD')).toBe('');
    expect(csvValue('CAMPAIGNS', 'ttr', 0.0523, 'USD')).toBe('5.23');
    expect(csvValue('CAMPAIGNS', 'impressions', 2947, 'USD')).toBe('2947');
    expect(csvValue('CAMPAIGNS', 'IPM', 12.5, 'USD')).toBe('12.5');
    expect(csvValue('CAMPAIGNS', 'servingStatus', 'TOTAL_BUDGET_EXHAUSTED', 'USD')).toBe('Budget exhausted');
    expect(csvValue('ADS', 'adDisplayStatus', 'ACTIVE', 'USD')).toBe('Enabled');
    expect(csvValue('CAMPAIGNS', 'tag', [{ id: 't', name: 'Top', color: 'Green' }, { id: 'u', name: 'Brand', color: 'Red' }], 'USD')).toBe('Top, Brand');
  });

  it('puts the currency in its own column and ids as text', () => {
    const csv = buildCsv(
      'KEYWORDS',
      ['keyword', 'keywordId', 'localSpend', 'taps', 'ttr'],
      [
        { keyword: 'brand, us', keywordId: '772182579262523445', localSpend: 1255.23, taps: 2947, ttr: 0.05 },
        { keyword: 'generic', keywordId: '12', localSpend: null, taps: 0, ttr: null },
      ],
      'EUR',
    );
    expect(csv).toBe('Keyword,Currency,Keyword ID,Spend,Taps,TTR (%)\r\n"brand, us",EUR,="772182579262523445",1255.23,2947,5\r\ngeneric,EUR,="12",,0,\r\n');
  });

  it("gives account rows their own currency", () => {
    const csv = buildCsv('ACCOUNTS', ['accountName', 'localSpend'], [{ accountName: 'A', currency: 'JPY', localSpend: 1500 }, { accountName: 'B', currency: 'USD', localSpend: 2.5 }], null);
    expect(csv).toBe('Account,Currency,Spend\r\nA,JPY,1500\r\nB,USD,2.5\r\n');
  });

  it('names the file by level and range', () => {
    expect(csvFileName('KEYWORDS', '2026-11-01', '2026-11-07')).toBe('searchdeck-keywords-2026-11-01_2026-11-07.csv');
  });
});
