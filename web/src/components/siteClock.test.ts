import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
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

  it("changes days with the site's clock, not the browser's", () => {
    // Chicago goes forward at 02:00 on 8 March 2026: that day has 23 hours.
    const spring = dayjs('2026-03-08T12:00:00');
    expect(sitePeriod({ start: spring, end: spring }, 'America/Chicago')).toEqual({
      after: '2026-03-08T06:00:00.000Z',
      before: '2026-03-09T04:59:59.999Z',
    });
    // Santiago goes forward at midnight on 6 September 2026: that day starts at 01:00.
    const skipped = dayjs('2026-09-06T12:00:00');
    expect(sitePeriod({ start: skipped, end: skipped }, 'America/Santiago')).toEqual({
      after: '2026-09-06T04:00:00.000Z',
      before: '2026-09-07T02:59:59.999Z',
    });
    expect(formatOnClock('2026-09-06T04:00:00Z', 'YYYY-MM-DD HH:mm', 'America/Santiago')).toBe(
      '2026-09-06 01:00',
    );
    expect(formatOnClock(instant, 'YYYY/MM/DD hh:mm a', 'Asia/Kolkata')).toBe(
      '2026/03/03 05:00 am',
    );
  });

  it("agrees with dayjs's timezone plugin through two years", () => {
    dayjs.extend(utc);
    dayjs.extend(timezone);
    const zones = ['Europe/Amsterdam', 'America/Chicago', 'Asia/Kolkata', 'America/St_Johns'];
    for (const zone of zones) {
      for (let hours = 0; hours < 2 * 366 * 24; hours += 13) {
        const at = dayjs('2026-01-01T00:17:31.250Z').add(hours, 'hour');
        const format = 'YYYY-MM-DD HH:mm:ss.SSS';
        expect(formatOnClock(at, format, zone)).toBe(at.tz(zone).format(format));
        expect(wallClock(zone, at).format(format)).toBe(at.tz(zone).format(format));
        const day = dayjs(`${at.format('YYYY-MM-DD')}T12:00:00`);
        expect(sitePeriod({ start: day, end: day }, zone)).toEqual({
          after: dayjs.tz(`${day.format('YYYY-MM-DD')}T00:00:00.000`, zone).toISOString(),
          before: dayjs.tz(`${day.format('YYYY-MM-DD')}T23:59:59.999`, zone).toISOString(),
        });
      }
    }
  });

  it('names the clock', () => {
    expect(clockNote(['Europe/Amsterdam'])).toBe('times in Europe/Amsterdam');
    expect(clockNote(['Europe/Amsterdam', 'Europe/Amsterdam', ''])).toBe(
      'times in Europe/Amsterdam',
    );
    expect(clockNote(['Europe/Amsterdam', 'America/Chicago'])).toBe("times on each site's clock");
  });
});
