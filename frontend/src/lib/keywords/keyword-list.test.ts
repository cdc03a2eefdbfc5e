import { keywordListText, normalizeKeyword, parseKeywordList } from './keyword-list';

describe('keyword lists (spec §5)', () => {
  it('takes one keyword per line, lower-cased, without punctuation or symbols', () => {
    expect(parseKeywordList('Photo Editor\nfilters & effects!\n#selfie cam')).toEqual(['photo editor', 'filters effects', 'selfie cam']);
  });

  it('drops empty lines and lines of symbols only', () => {
    expect(parseKeywordList('\n  \n---\nvideo\n\n')).toEqual(['video']);
  });

  it('removes duplicates, also those that differ only by case or punctuation', () => {
    expect(parseKeywordList('Photo editor\nphoto-editor\nPHOTO EDITOR.\nphoto  editor')).toEqual(['photo editor', 'photoeditor']);
  });

  it('keeps letters and digits of any script', () => {
    expect(parseKeywordList('Фото редактор\n写真 2024\ncafé')).toEqual(['фото редактор', '写真 2024', 'café']);
  });

  it('reads Windows line ends', () => {
    expect(parseKeywordList('one\r\ntwo\r\n')).toEqual(['one', 'two']);
  });

  it('normalises a single line and writes a list back one per line', () => {
    expect(normalizeKeyword('  Best   Games!! ')).toBe('best games');
    expect(keywordListText(['a', 'b'])).toBe('a\nb');
  });
});
