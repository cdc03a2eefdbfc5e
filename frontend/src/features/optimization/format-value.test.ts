import { columnOf } from './columns';
import { csvValue } from './csv';
import { formatValue } from './format-value';

describe('coded values in the tables (issue 42: no raw codes)', () => {
  it.each([
    ['NEGATIVE', 'level', 'AD_GROUP', 'Ad group'],
    ['NEGATIVE', 'level', 'CAMPAIGN', 'Campaign'],
    ['NEGATIVE', 'matchType', 'EXACT', 'Exact'],
    ['NEGATIVE', 'matchType', 'BROAD', 'Broad'],
    ['KEYWORDS', 'matchType', 'BROAD', 'Broad'],
    ['SEARCHTERMS', 'searchTermSource', 'AUTO', 'Search Match'],
  ] as const)('%s %s %s reads %s, in the table and in the export', (level, field, code, words) => {
    expect(formatValue(columnOf(level, field), code, 'USD')).toBe(words);
    expect(csvValue(level, field, code, 'USD')).toBe(words);
  });

  it('puts an unknown code as a phrase, never the raw code', () => {
    expect(formatValue(columnOf('NEGATIVE', 'level'), 'ORG_WIDE', 'USD')).toBe('Org wide');
  });
});

describe('the Conversions and Cohort columns (docs/api/attribution.md)', () => {
  it.each([
    ['CAMPAIGNS', 'trackedInstalls', 1234, '1 234'],
    ['KEYWORDS', 'trials', 12, '12'],
    ['GROUPS', 'purchases', '3', '3'],
    ['CAMPAIGNS', 'trackedInstallRate', 0.8125, '81.25%'],
    ['CAMPAIGNS', 'roas', 1.5, '150%'],
    ['CAMPAIGNS', 'costPerTrial', 2.499, '$2.49'],
    ['ADS', 'totalRevenue', -4.99, '-$4.99'],
    ['CAMPAIGNS', 'tapRevenue', 1000, '$1 000.00'],
    ['CAMPAIGNS', 'arpu', 0.5, '$0.50'],
    ['KEYWORDS', 'revenueD0', 10, '$10.00'],
    ['GROUPS', 'revenueD30', 99.999, '$99.99'],
  ] as const)('%s %s %s reads %s', (level, field, value, text) => {
    expect(formatValue(columnOf(level, field), value, 'USD')).toBe(text);
  });

  it('shows money in the report’s currency, and null (no denominator, locked) as the empty mark', () => {
    expect(formatValue(columnOf('CAMPAIGNS', 'revenueD7'), 1500, 'JPY')).toBe('¥1 500');
    expect(formatValue(columnOf('CAMPAIGNS', 'costPerPurchase'), null, 'USD')).toBe('—');
    expect(formatValue(columnOf('CAMPAIGNS', 'roas'), null, 'USD')).toBe('—');
    expect(formatValue(columnOf('CAMPAIGNS', 'trials'), undefined, 'USD')).toBe('—');
  });

  it('exports ratios as percentages under a (%) header', () => {
    expect(csvValue('CAMPAIGNS', 'roas', 1.5, 'USD')).toBe('150');
    expect(csvValue('CAMPAIGNS', 'revenueD1', 4.99, 'USD')).toBe('4.99');
  });
});
