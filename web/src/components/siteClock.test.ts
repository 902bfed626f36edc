import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { lastDays } from './format';
import { clockNote, formatOnClock, sitePeriod, wallClock } from './siteClock';

describe('site clock', () => {
  const instant = dayjs('2026-03-02T23:30:00Z');

  it('counts whole days on the site clock', () => {
    const range = lastDays(1, dayjs('2026-03-02T10:00:00'));
    expect(sitePeriod(range, 'Europe/Amsterdam')).toEqual({
      after: '2026-03-01T23:00:00.000Z',
      before: '2026-03-02T22:59:59.999Z',
    });
    expect(sitePeriod(range, 'America/Chicago')).toEqual({
      after: '2026-03-02T06:00:00.000Z',
      before: '2026-03-03T05:59:59.999Z',
    });
    // No zone: the browser's days, as picked.
    expect(sitePeriod(range, undefined)).toEqual({
      after: range.start.toISOString(),
      before: range.end.toISOString(),
    });
  });

  it("shows times and today on the site's clock", () => {
    expect(formatOnClock(instant, 'YYYY/MM/DD hh:mm a', 'Europe/Amsterdam')).toBe(
      '2026/03/03 12:30 am',
    );
    expect(formatOnClock(instant, 'hh:mm a', 'America/Chicago')).toBe('05:30 pm');
    expect(formatOnClock('0001-01-01T00:00:00Z', 'hh:mm a', 'America/Chicago')).toBe('');
    expect(wallClock('Asia/Tokyo', instant).format('YYYY-MM-DD HH:mm')).toBe('2026-03-03 08:30');
    expect(wallClock(undefined, instant)).toBe(instant);
  });

  it('names the clock', () => {
    expect(clockNote(['Europe/Amsterdam'])).toBe('times in Europe/Amsterdam');
    expect(clockNote(['Europe/Amsterdam', 'Europe/Amsterdam', ''])).toBe(
      'times in Europe/Amsterdam',
    );
    expect(clockNote(['Europe/Amsterdam', 'America/Chicago'])).toBe("times on each site's clock");
  });
});
