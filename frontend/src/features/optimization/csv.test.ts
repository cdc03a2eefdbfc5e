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

  it('formats values as the table shows them (spec §5)', () => {
    expect(csvValue('CAMPAIGNS', 'localSpend', 12345.678, 'USD')).toBe('$12 345.67');
    expect(csvValue('CAMPAIGNS', 'localSpend', 1234.5, 'JPY')).toBe('¥1 234');
    expect(csvValue('CAMPAIGNS', 'localSpend', 'No data', 'USD')).toBe('No data');
    expect(csvValue('CAMPAIGNS', 'localSpend', null, 'USD')).toBe('—');
    expect(csvValue('CAMPAIGNS', 'ttr', 0.0523, 'USD')).toBe('5.23%');
    expect(csvValue('CAMPAIGNS', 'impressions', 23000, 'USD')).toBe('23 000');
    expect(csvValue('CAMPAIGNS', 'servingStatus', 'TOTAL_BUDGET_EXHAUSTED', 'USD')).toBe('Budget exhausted');
    expect(csvValue('GROUPS', 'adGroupServingStatus', 'NOT_RUNNING', 'USD')).toBe('Paused');
    expect(csvValue('ADS', 'adDisplayStatus', 'ACTIVE', 'USD')).toBe('Enabled');
    expect(csvValue('CAMPAIGNS', 'tag', [{ id: 't', name: 'Top', color: 'Green' }, { id: 'u', name: 'Brand', color: 'Red' }], 'USD')).toBe('Top, Brand');
    expect(csvValue('NEGATIVE', 'modificationTime', '2026-11-02', 'USD')).toMatch(/^02\/11\/2026/);
  });

  it('builds a header of labels and one line per row', () => {
    const csv = buildCsv(
      'CAMPAIGNS',
      ['campaignName', 'localSpend', 'taps'],
      [
        { campaignName: 'Brand, US', localSpend: 1234.5, taps: 1200 },
        { campaignName: 'Generic', localSpend: null, taps: 0 },
      ],
      'EUR',
    );
    expect(csv).toBe('Campaign,Spend,Taps\r\n"Brand, US",€1 234.50,1 200\r\nGeneric,—,0\r\n');
  });

  it('names the file by level and range', () => {
    expect(csvFileName('KEYWORDS', '2026-11-01', '2026-11-07')).toBe('searchdeck-keywords-2026-11-01_2026-11-07.csv');
  });
});
