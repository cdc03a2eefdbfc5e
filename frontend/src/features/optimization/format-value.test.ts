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
