/** Times of site reports on the site's clock, whatever the browser's (spec section 9). */
import dayjs, { type Dayjs } from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import { formatDate, isUnsetDate, type DateInput, type DateRangeValue } from './format';

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * Now on the site's clock, as a browser-local time showing that wall time: the day pickers
 * and quick ranges then count the site's days. No zone: the browser's clock.
 */
export function wallClock(zone: string | undefined, now: Dayjs = dayjs()): Dayjs {
  return zone ? dayjs(now.tz(zone).format('YYYY-MM-DDTHH:mm:ss.SSS')) : now;
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
    after: dayjs.tz(`${range.start.format('YYYY-MM-DD')}T00:00:00.000`, zone).toISOString(),
    before: dayjs.tz(`${range.end.format('YYYY-MM-DD')}T23:59:59.999`, zone).toISOString(),
  };
}

/** A time in a format on the site's clock (the browser's with no zone). */
export function formatOnClock(value: DateInput, format: string, zone: string | undefined): string {
  if (!zone || isUnsetDate(value)) return formatDate(value, format);
  return dayjs(value).tz(zone).format(format);
}

/** What a screen says of its times: 'times in Europe/Amsterdam', or each site's. */
export function clockNote(zones: readonly string[]): string {
  const distinct = [...new Set(zones.filter(Boolean))];
  return distinct.length === 1 ? `times in ${distinct[0]}` : "times on each site's clock";
}
