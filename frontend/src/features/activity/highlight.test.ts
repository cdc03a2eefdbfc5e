import { highlightParts } from './highlight';

describe('the search text highlighted', () => {
  it('marks every occurrence, whatever the case', () => {
    expect(highlightParts('US — Brand brand', 'BRAND')).toEqual([
      { text: 'US — ', match: false },
      { text: 'Brand', match: true },
      { text: ' ', match: false },
      { text: 'brand', match: true },
    ]);
  });

  it('matches the search as it is sent: trimmed', () => {
    expect(highlightParts('Brand US', '  us ')).toEqual([
      { text: 'Brand ', match: false },
      { text: 'US', match: true },
    ]);
  });

  it('marks nothing without a search or a match', () => {
    expect(highlightParts('Brand US', '   ')).toEqual([{ text: 'Brand US', match: false }]);
    expect(highlightParts('Brand US', 'generic')).toEqual([{ text: 'Brand US', match: false }]);
  });

  it('takes the search literally (no pattern characters)', () => {
    expect(highlightParts('Cost (US) *', '(us)')).toEqual([
      { text: 'Cost ', match: false },
      { text: '(US)', match: true },
      { text: ' *', match: false },
    ]);
  });
});
