/**
 * Times of site reports on the site's clock, whatever the browser's (spec section 9).
 *
 * The zones come from the browser's own Intl, one formatter per zone, not from dayjs's timezone
 * plugin: that plugin builds a formatter at every call, and once registered it sends every
 * date picker through that path, first paint included.
 */
import dayjs, { type Dayjs } from 'dayjs';
import utc from 'dayjs/plugin/utc';
import { formatDate, isUnsetDate, type DateInput, type DateRangeValue } from './format';

dayjs.extend(utc);

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

// Building a formatter costs far more than using it.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/**
 * The time the zone's clock shows at an instant, as the instant the UTC clock shows it: the
 * difference between the two is the zone's offset then.
 */
function onClockAsUtc(instant: number, zone: string): number {
  const fields: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const part of formatterOf(zone).formatToParts(instant)) fields[part.type] = part.value;
  const year = Number(fields.year);
  const shown = utcOf(
    fields.era === 'BC' ? 1 - year : year,
    Number(fields.month) - 1,
    Number(fields.day),
  );
  shown.setUTCHours(Number(fields.hour), Number(fields.minute), Number(fields.second));
  return shown.getTime() + (((instant % 1000) + 1000) % 1000);
}

/** Midnight of a day on the UTC clock (Date.UTC would read the years 0 to 99 as 1900s). */
function utcOf(year: number, monthIndex: number, day: number): Date {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day);
  return date;
}

const offsetMinutes = (instant: number, zone: string) =>
  (onClockAsUtc(instant, zone) - instant) / MINUTE_MS;

/**
 * The instant the zone's clock shows a time (given as the instant the UTC clock shows it).
 * A time the clock skips when it goes forward is read with the offset before the change, so a
 * day that starts in the skipped hour starts when the clock jumps; a time it shows twice is the
 * first of the two.
 */
function instantOnClock(asUtc: number, zone: string): number {
  const before = offsetMinutes(asUtc - DAY_MS, zone);
  const after = offsetMinutes(asUtc + DAY_MS, zone);
  const candidates = [asUtc - before * MINUTE_MS, asUtc - after * MINUTE_MS].sort((a, b) => a - b);
  const shown = candidates.find((t) => onClockAsUtc(t, zone) === asUtc);
  return shown ?? asUtc - Math.min(before, after) * MINUTE_MS;
}

/** The start of a picked day, as the instant the UTC clock shows it. */
const dayAsUtc = (day: Dayjs) => utcOf(day.year(), day.month(), day.date()).getTime();

/**
 * Now on the site's clock, as a browser-local time showing that wall time: the day pickers
 * and quick ranges then count the site's days. No zone: the browser's clock.
 */
export function wallClock(zone: string | undefined, now: Dayjs = dayjs()): Dayjs {
  if (!zone) return now;
  return dayjs(dayjs.utc(onClockAsUtc(now.valueOf(), zone)).format('YYYY-MM-DDTHH:mm:ss.SSS'));
}

/**
 * The instants a range of whole days stands for on the site's clock: from the start of its
 * first day to the end of its last. No zone: on the browser's clock.
 */
export function sitePeriod(
  range: DateRangeValue,
  zone: string | undefined,
): { after: string; before: string } {
  if (!zone) return { after: range.start.toISOString(), before: range.end.toISOString() };
  return {
    after: new Date(instantOnClock(dayAsUtc(range.start), zone)).toISOString(),
    before: new Date(instantOnClock(dayAsUtc(range.end) + DAY_MS - 1, zone)).toISOString(),
  };
}

/**
 * A time in a format on the site's clock (the browser's with no zone). The format names the
 * date and the time, not an offset.
 */
export function formatOnClock(value: DateInput, format: string, zone: string | undefined): string {
  if (!zone || isUnsetDate(value)) return formatDate(value, format);
  return dayjs.utc(onClockAsUtc(dayjs(value).valueOf(), zone)).format(format);
}

/** What a screen says of its times: 'times in Europe/Amsterdam', or each site's. */
export function clockNote(zones: readonly string[]): string {
  const distinct = [...new Set(zones.filter(Boolean))];
  return distinct.length === 1 ? `times in ${distinct[0]}` : "times on each site's clock";
}
