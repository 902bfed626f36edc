/** Date, duration and size formatting shared by every screen (spec section 9). */
import dayjs, { type Dayjs } from 'dayjs';

export const LIST_DATE_FORMAT = 'YYYY/MM/DD hh:mm:ss a';
const IMAGE_DATE_FORMAT = 'MM/DD/YYYY hh:mm A';
const THING_DATE_FORMAT = 'MM/DD/YYYY hh:mm a';
export const DAY_FORMAT = 'YYYY/MM/DD';

export type DateInput = string | number | Date | Dayjs | null | undefined;

const ZERO_MS = new Date('0001-01-01T00:00:00Z').getTime();

function toDayjs(value: DateInput): Dayjs | null {
  if (value === null || value === undefined || value === '') return null;
  const d = dayjs(value);
  return d.isValid() ? d : null;
}

/** The server's unset time, '0001-01-01T00:00:00Z', in any of its spellings. */
export function isZeroTime(value: DateInput): boolean {
  const d = toDayjs(value);
  return d !== null && d.valueOf() === ZERO_MS;
}

/** Dates before year 1000 count as unset. */
export function isUnsetDate(value: DateInput): boolean {
  const d = toDayjs(value);
  return d === null || d.year() < 1000;
}

/** Blank for no date or the zero time, 'N/A' before year 1000, else the given format. */
export function formatDate(value: DateInput, format: string = LIST_DATE_FORMAT): string {
  const d = toDayjs(value);
  if (d === null || d.valueOf() === ZERO_MS) return '';
  if (d.year() < 1000) return 'N/A';
  return d.format(format);
}

export const formatListDate = (value: DateInput) => formatDate(value, LIST_DATE_FORMAT);
export const formatImageDate = (value: DateInput) => formatDate(value, IMAGE_DATE_FORMAT);
export const formatThingDate = (value: DateInput) => formatDate(value, THING_DATE_FORMAT);

export type DurationUnit = 'milliseconds' | 'seconds' | 'minutes' | 'hours' | 'days';

const NANOS: Record<DurationUnit, number> = {
  milliseconds: 1e6,
  seconds: 1e9,
  minutes: 6e10,
  hours: 3.6e12,
  days: 8.64e13,
};

const DEFAULT_DURATION_UNIT: DurationUnit = 'minutes';

/** Nanoseconds (as the server stores durations) to the displayed unit. */
export function nanosToUnit(nanos: number, unit: DurationUnit = DEFAULT_DURATION_UNIT): number {
  return nanos / NANOS[unit];
}

/** A value in the displayed unit back to whole nanoseconds. */
export function unitToNanos(value: number, unit: DurationUnit = DEFAULT_DURATION_UNIT): number {
  return Math.round(value * NANOS[unit]);
}

export function nanosToMinutes(nanos: number): number {
  return nanos / NANOS.minutes;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** Report durations: hours:minutes, e.g. 125 minutes is '2:05'. */
export function formatHoursMinutes(nanos: number): string {
  const minutes = Math.floor(Math.max(0, nanos) / NANOS.minutes);
  return `${Math.floor(minutes / 60)}:${pad2(minutes % 60)}`;
}

/** Zone durations page: h:mm:ss. */
export function formatHms(nanos: number): string {
  const seconds = Math.floor(Math.max(0, nanos) / NANOS.seconds);
  const h = Math.floor(seconds / 3600);
  return `${h}:${pad2(Math.floor((seconds % 3600) / 60))}:${pad2(seconds % 60)}`;
}

/** Time elapsed since a date as h:mm; blank for an unset date. */
export function formatElapsed(since: DateInput, now: DateInput = dayjs()): string {
  const from = toDayjs(since);
  const to = toDayjs(now);
  if (from === null || to === null || from.year() < 1000) return '';
  return formatHoursMinutes(Math.max(0, to.diff(from)) * NANOS.milliseconds);
}

const BYTE_UNITS = ['Bytes', 'KB', 'MB', 'GB'];

export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const i = Math.min(BYTE_UNITS.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  const value = bytes / 1024 ** i;
  return `${i === 0 ? value : value.toFixed(2).replace(/\.?0+$/, '')} ${BYTE_UNITS[i]}`;
}

export interface DateRangeValue {
  start: Dayjs;
  end: Dayjs;
}

/** Quick ranges: 1 is today, 7 is 6 days back, 30 is 29 days back; ends at the end of today. */
export function lastDays(days: number, now: Dayjs = dayjs()): DateRangeValue {
  return {
    start: now.subtract(days - 1, 'day').startOf('day'),
    end: now.endOf('day'),
  };
}

/** Text cut to `max` characters with an ellipsis (chart axis labels). */
export function shortText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
