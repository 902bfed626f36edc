/** Pure rules of the zone reports: live Zone Status and Zones History (spec sections 2, 9). */
import dayjs from 'dayjs';
import { isUnsetDate, nanosToMinutes, type DateInput } from '../../components/format';
import { UNKNOWN_THING_ID } from '../../constants';

/** Live zone page: things every 5 s, the clock every 1 s. */
export const LIVE_THINGS_POLL_MS = 5000;
export const LIVE_CLOCK_MS = 1000;

/** The zone's maximum minutes: its duration in nanoseconds / 6e10; 0 means no maximum. */
export function zoneMaxMinutes(durationNanos: number | null | undefined): number {
  return durationNanos && durationNanos > 0 ? nanosToMinutes(durationNanos) : 0;
}

/** Nanoseconds a thing has been in its zone since it entered, 0 when the time is unset. */
export function nanosInZone(since: DateInput, now: DateInput = dayjs()): number {
  if (isUnsetDate(since)) return 0;
  return Math.max(0, dayjs(now).diff(dayjs(since))) * 1e6;
}

/** A live row turns red when the time in the zone exceeds the zone's maximum minutes. */
export function isOverZoneTime(
  since: DateInput,
  zoneDurationNanos: number | null | undefined,
  now: DateInput = dayjs(),
): boolean {
  const max = zoneMaxMinutes(zoneDurationNanos);
  if (max <= 0 || isUnsetDate(since)) return false;
  return nanosToMinutes(nanosInZone(since, now)) > max;
}

export interface ZoneRef {
  _id: string;
  name: string;
  duration?: number | null;
  site?: string;
}

export interface ThingInZone {
  _id: string;
  common: { name?: string | null; class: string; tag1?: string | null };
  state: { zone: string; lastZoneTime: string };
}

export interface ZoneOccupancy<T extends ThingInZone> {
  zone: ZoneRef;
  things: T[];
  items: number;
  workers: number;
}

/**
 * The site's zones, each with the things in it (longest there first). Workers are left out
 * when hidden; the unknown placeholder thing is never listed.
 */
export function occupancyByZone<T extends ThingInZone>(
  zones: readonly ZoneRef[],
  things: readonly T[],
  hideWorkers: boolean,
): ZoneOccupancy<T>[] {
  const byZone = new Map<string, T[]>(zones.map((z) => [z._id, []]));
  for (const thing of things) {
    if (thing._id === UNKNOWN_THING_ID) continue;
    if (hideWorkers && thing.common.class === 'worker') continue;
    byZone.get(thing.state.zone)?.push(thing);
  }
  return zones.map((zone) => {
    const inZone = (byZone.get(zone._id) ?? []).sort((a, b) =>
      a.state.lastZoneTime.localeCompare(b.state.lastZoneTime),
    );
    const workers = inZone.filter((t) => t.common.class === 'worker').length;
    return { zone, things: inZone, items: inZone.length - workers, workers };
  });
}

/** Hours with two decimals, the bar length of the Zones History graph. */
export function nanosToHours(nanos: number): number {
  return Math.round((nanos / 3.6e12) * 100) / 100;
}

/** The categories a Zone Categories report found, by name, each once. */
export function reportCategories(
  zones: readonly { categories: readonly { category: string }[] }[],
): string[] {
  const names = new Set(zones.flatMap((z) => z.categories.map((c) => c.category)));
  return [...names].sort((a, b) => a.localeCompare(b));
}
