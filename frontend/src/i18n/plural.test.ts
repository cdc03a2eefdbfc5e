import { tn } from '@/i18n';

describe('tn', () => {
  it('chooses the plural form by the locale rules', () => {
    expect(tn('table.rowCount', 1)).toBe('1 row');
    expect(tn('table.rowCount', 0)).toBe('0 rows');
    expect(tn('table.rowCount', 2947, '2 947')).toBe('2 947 rows');
    expect(tn('table.rowCount', 1, '1', 'ru')).toBe('1 строка');
    expect(tn('table.rowCount', 3, '3', 'ru')).toBe('3 строки');
    expect(tn('table.rowCount', 5, '5', 'ru')).toBe('5 строк');
    expect(tn('table.rowCount', 21, '21', 'ru')).toBe('21 строка');
  });
});
