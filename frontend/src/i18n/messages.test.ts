import { EN_PARTS, en } from './en';
import { RU_PARTS, ru } from './ru';

const keyCount = (parts: readonly object[]) => parts.reduce((n, part) => n + Object.keys(part).length, 0);

describe('the copy merged from the features', () => {
  it('has each key in one part only', () => {
    expect(keyCount(EN_PARTS)).toBe(Object.keys(en).length);
    expect(keyCount(RU_PARTS)).toBe(Object.keys(ru).length);
  });

  it('has every English part twinned in Russian, key for key', () => {
    expect(RU_PARTS).toHaveLength(EN_PARTS.length);
    EN_PARTS.forEach((part, i) => expect(Object.keys(RU_PARTS[i] ?? {}).sort()).toEqual(Object.keys(part).sort()));
  });
});
