import { customRange, displayDay, mondayOf, parseDisplayDay, presetRange, todayIn } from './date-range';

// Thursday 19 November 2026.
const today = '2026-11-19';

describe('named ranges', () => {
  it.each([
    ['today', '2026-11-19', '2026-11-19'],
    ['yesterday', '2026-11-18', '2026-11-18'],
    ['last7', '2026-11-13', '2026-11-19'],
    ['thisWeek', '2026-11-16', '2026-11-19'],
    ['lastWeek', '2026-11-09', '2026-11-15'],
    ['thisMonth', '2026-11-01', '2026-11-19'],
    ['lastMonth', '2026-10-01', '2026-10-31'],
    ['last30', '2026-10-21', '2026-11-19'],
    ['last4Weeks', '2026-10-19', '2026-11-15'],
    ['last12Weeks', '2026-08-24', '2026-11-15'],
    ['yearToDate', '2026-01-01', '2026-11-19'],
  ] as const)('%s is %s to %s', (preset, start, end) => {
    expect(presetRange(preset, today)).toEqual({ start, end, preset });
  });

  it('weeks start on Monday, also when today is Monday or Sunday', () => {
    expect(mondayOf('2026-11-16')).toBe('2026-11-16');
    expect(mondayOf('2026-11-22')).toBe('2026-11-16');
    expect(presetRange('thisWeek', '2026-11-22')).toMatchObject({ start: '2026-11-16', end: '2026-11-22' });
    expect(presetRange('lastWeek', '2026-11-16')).toMatchObject({ start: '2026-11-09', end: '2026-11-15' });
  });

  it('last month crosses the year and knows February', () => {
    expect(presetRange('lastMonth', '2027-01-05')).toMatchObject({ start: '2026-12-01', end: '2026-12-31' });
    expect(presetRange('lastMonth', '2028-03-31')).toMatchObject({ start: '2028-02-01', end: '2028-02-29' });
  });
});

describe('custom ranges', () => {
  it('swaps start and end when the end comes first', () => {
    expect(customRange('2026-11-10', '2026-11-02')).toEqual({ start: '2026-11-02', end: '2026-11-10', preset: null });
    expect(customRange('2026-11-02', '2026-11-10')).toEqual({ start: '2026-11-02', end: '2026-11-10', preset: null });
  });

  it('reads and shows days as DD/MM/YYYY', () => {
    expect(parseDisplayDay('05/11/2026')).toBe('2026-11-05');
    expect(parseDisplayDay('5/1/2026')).toBe('2026-01-05');
    expect(parseDisplayDay('31/02/2026')).toBeNull();
    expect(parseDisplayDay('2026-11-05')).toBeNull();
    expect(displayDay('2026-11-05')).toBe('05/11/2026');
  });
});

it("today is the campaign group's day", () => {
  const now = new Date('2026-11-19T23:30:00Z');
  expect(todayIn('UTC', now)).toBe('2026-11-19');
  expect(todayIn('Asia/Tokyo', now)).toBe('2026-11-20');
  expect(todayIn('America/Los_Angeles', now)).toBe('2026-11-19');
  expect(todayIn('Not/AZone', now)).toMatch(/^\d{4}-\d{2}-\d{2}$/);
});
