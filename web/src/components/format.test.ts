import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatDate,
  formatElapsed,
  formatHms,
  formatHoursMinutes,
  formatImageDate,
  formatListDate,
  formatThingDate,
  isUnsetDate,
  isZeroTime,
  lastDays,
  nanosToMinutes,
  nanosToUnit,
  unitToNanos,
} from './format';

describe('date formats', () => {
  const local = dayjs('2024-03-05T14:07:09');

  it('formats list, image and thing dates as the spec says', () => {
    expect(formatListDate(local)).toBe('2024/03/05 02:07:09 pm');
    expect(formatImageDate(local)).toBe('03/05/2024 02:07 PM');
    expect(formatThingDate(local)).toBe('03/05/2024 02:07 pm');
  });

  it('shows the zero time blank, in any spelling', () => {
    expect(formatListDate('0001-01-01T00:00:00Z')).toBe('');
    expect(formatListDate('0001-01-01T00:00:00.000Z')).toBe('');
    expect(formatListDate('0001-01-01T00:00:00+00:00')).toBe('');
    expect(isZeroTime('0001-01-01T00:00:00Z')).toBe(true);
    expect(isZeroTime('2020-01-01T00:00:00Z')).toBe(false);
  });

  it('shows N/A for dates before year 1000', () => {
    expect(formatThingDate('0999-12-31T00:00:00Z')).toBe('N/A');
    expect(formatImageDate('0500-06-01T00:00:00Z')).toBe('N/A');
    expect(isUnsetDate('0999-12-31T00:00:00Z')).toBe(true);
    expect(isUnsetDate('2001-01-01T00:00:00Z')).toBe(false);
  });

  it('shows nothing for a missing or invalid date', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate(undefined)).toBe('');
    expect(formatDate('')).toBe('');
    expect(formatDate('not a date')).toBe('');
  });
});

describe('durations', () => {
  it('converts nanoseconds to and from every unit (minutes by default)', () => {
    expect(nanosToUnit(6e10)).toBe(1);
    expect(unitToNanos(1)).toBe(6e10);
    expect(nanosToUnit(1.5e9, 'seconds')).toBe(1.5);
    expect(unitToNanos(2, 'hours')).toBe(7.2e12);
    expect(unitToNanos(1, 'days')).toBe(8.64e13);
    expect(nanosToUnit(2.5e6, 'milliseconds')).toBe(2.5);
    expect(unitToNanos(0.5, 'minutes')).toBe(3e10);
    expect(nanosToMinutes(9e11)).toBe(15);
  });

  it('round-trips a value through nanoseconds', () => {
    for (const unit of ['milliseconds', 'seconds', 'minutes', 'hours', 'days'] as const) {
      expect(nanosToUnit(unitToNanos(7.25, unit), unit)).toBeCloseTo(7.25);
    }
  });

  it('formats hours:minutes and h:mm:ss', () => {
    expect(formatHoursMinutes(125 * 6e10)).toBe('2:05');
    expect(formatHoursMinutes(0)).toBe('0:00');
    expect(formatHoursMinutes(-5)).toBe('0:00');
    expect(formatHoursMinutes(30 * 3.6e12)).toBe('30:00');
    expect(formatHms(3723 * 1e9)).toBe('1:02:03');
    expect(formatHms(59.9 * 1e9)).toBe('0:00:59');
  });

  it('formats the elapsed time as h:mm', () => {
    const now = dayjs('2024-01-02T10:00:00Z');
    expect(formatElapsed('2024-01-02T08:55:00Z', now)).toBe('1:05');
    expect(formatElapsed('2024-01-01T09:00:00Z', now)).toBe('25:00');
    expect(formatElapsed('0001-01-01T00:00:00Z', now)).toBe('');
    expect(formatElapsed('2024-01-02T11:00:00Z', now)).toBe('0:00');
  });
});

describe('other helpers', () => {
  it('formats byte sizes', () => {
    expect(formatBytes(0)).toBe('0 Bytes');
    expect(formatBytes(512)).toBe('512 Bytes');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5 MB');
    expect(formatBytes(3 * 1024 ** 3)).toBe('3 GB');
  });

  it('computes the quick ranges', () => {
    const now = dayjs('2024-05-31T15:00:00');
    expect(lastDays(1, now).start.format('YYYY-MM-DD HH:mm')).toBe('2024-05-31 00:00');
    expect(lastDays(7, now).start.format('YYYY-MM-DD')).toBe('2024-05-25');
    expect(lastDays(30, now).start.format('YYYY-MM-DD')).toBe('2024-05-02');
    expect(lastDays(7, now).end.format('YYYY-MM-DD HH:mm')).toBe('2024-05-31 23:59');
  });
});
