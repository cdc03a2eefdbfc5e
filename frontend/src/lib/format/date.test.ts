import { formatDate, formatDateTime, formatTimeAgo } from './date';
import { EMPTY } from './number';

describe('formatDate (DD/MM/YYYY)', () => {
  it('shows a calendar day as that day', () => {
    expect(formatDate('2026-11-02')).toBe('02/11/2026');
    expect(formatDate('2026-01-31')).toBe('31/01/2026');
  });

  it('shows an instant on its local day', () => {
    expect(formatDate(new Date(2026, 10, 22, 23, 59))).toBe('22/11/2026');
    expect(formatDate(new Date(2026, 0, 5).getTime())).toBe('05/01/2026');
    const local = new Date(2026, 2, 9, 8, 30);
    expect(formatDate(local.toISOString())).toBe('09/03/2026');
  });

  it('shows a dash for nothing or an unreadable date', () => {
    expect(formatDate(null)).toBe(EMPTY);
    expect(formatDate(undefined)).toBe(EMPTY);
    expect(formatDate('')).toBe(EMPTY);
    expect(formatDate('yesterday')).toBe(EMPTY);
  });
});

describe('formatDateTime (DD/MM/YYYY HH:mm)', () => {
  it('shows local time on a 24-hour clock', () => {
    expect(formatDateTime(new Date(2026, 10, 22, 20, 5))).toBe('22/11/2026 20:05');
    expect(formatDateTime(new Date(2026, 10, 22, 0, 0))).toBe('22/11/2026 00:00');
  });

  it('shows a dash for nothing', () => {
    expect(formatDateTime(null)).toBe(EMPTY);
  });
});

describe('formatTimeAgo', () => {
  const now = Date.UTC(2026, 11, 3, 12, 0, 0);
  it('says how long ago in the largest whole unit', () => {
    expect(formatTimeAgo(now - 3_000, now)).toBe('now');
    expect(formatTimeAgo(now - 45_000, now)).toBe('45 seconds ago');
    expect(formatTimeAgo(now - 5 * 60_000, now)).toBe('5 minutes ago');
    expect(formatTimeAgo(now - 2 * 3_600_000, now)).toBe('2 hours ago');
    expect(formatTimeAgo(now - 24 * 3_600_000, now)).toBe('yesterday');
    expect(formatTimeAgo(now - 3 * 24 * 3_600_000, now)).toBe('3 days ago');
    expect(formatTimeAgo(null, now)).toBe(EMPTY);
  });
});
