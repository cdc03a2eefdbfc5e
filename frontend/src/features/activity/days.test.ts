import type { Notification } from './api/notifications';
import { dayGroupOf, dayOf, defaultRange, groupByDay } from './days';

const note = (id: string, dateCreated: string) => ({ _id: id, dateCreated }) as Notification;

describe('notifications grouped by the browser day', () => {
  // 27/11/2026 00:30 at UTC+2 is still 26/11 22:30 in UTC.
  const now = new Date('2026-11-26T22:30:00Z');
  const gmt = 120;

  it('takes the day at the browser offset, not in UTC', () => {
    expect(dayOf(now, gmt)).toBe('2026-11-27');
    expect(dayOf(now, 0)).toBe('2026-11-26');
    expect(dayOf(now, -300)).toBe('2026-11-26');
  });

  it('puts each notification under Today, Yesterday, Last 30 days or Older at the day boundaries', () => {
    // Local midnight of 27/11 is 26/11 22:00 UTC.
    expect(dayGroupOf('2026-11-26T22:00:00Z', now, gmt)).toBe('today');
    expect(dayGroupOf('2026-11-26T21:59:59Z', now, gmt)).toBe('yesterday');
    expect(dayGroupOf('2026-11-25T22:00:00Z', now, gmt)).toBe('yesterday');
    expect(dayGroupOf('2026-11-25T21:59:59Z', now, gmt)).toBe('last30');
    // 29 days before 27/11 is 29/10, the first day of the 30-day window.
    expect(dayGroupOf('2026-10-28T22:00:00Z', now, gmt)).toBe('last30');
    expect(dayGroupOf('2026-10-28T21:59:59Z', now, gmt)).toBe('older');
    // At UTC the same instants fall a day earlier.
    expect(dayGroupOf('2026-11-26T22:00:00Z', now, 0)).toBe('today');
    expect(dayGroupOf('2026-11-26T21:59:59Z', now, 0)).toBe('today');
    expect(dayGroupOf('2026-11-25T23:59:59Z', now, 0)).toBe('yesterday');
  });

  it('west of UTC, the evening before UTC midnight is still today', () => {
    const evening = new Date('2026-11-27T04:00:00Z'); // 23:00 on 26/11 at UTC−5
    expect(dayGroupOf('2026-11-26T05:00:00Z', evening, -300)).toBe('today');
    expect(dayGroupOf('2026-11-26T04:59:59Z', evening, -300)).toBe('yesterday');
  });

  it('keeps the order within groups and leaves empty groups out', () => {
    const sections = groupByDay(
      [note('a', '2026-11-26T23:00:00Z'), note('b', '2026-11-26T22:10:00Z'), note('c', '2026-11-20T10:00:00Z'), note('d', '2025-01-01T00:00:00Z')],
      now,
      gmt,
    );
    expect(sections.map((s) => [s.group, s.items.map((i) => i._id)])).toEqual([
      ['today', ['a', 'b']],
      ['last30', ['c']],
      ['older', ['d']],
    ]);
  });

  it('defaults to the last 30 days, today included', () => {
    expect(defaultRange(now, gmt)).toEqual({ start: '2026-10-29', end: '2026-11-27' });
    expect(defaultRange(now, 0)).toEqual({ start: '2026-10-28', end: '2026-11-26' });
  });
});
