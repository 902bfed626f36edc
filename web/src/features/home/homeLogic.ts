/** Pure rules of the Home dashboard (spec sections 2 and 9). */
import dayjs from 'dayjs';
import { isUnsetDate, type DateInput } from '../../components/format';

/** An endpoint whose last heartbeat is older than this is shown in red. */
const HEARTBEAT_STALE_MINUTES = 60;

/** Stale: no heartbeat at all, or the last one older than 60 minutes. */
export function isHeartbeatStale(time: DateInput, now: DateInput = dayjs()): boolean {
  if (isUnsetDate(time)) return true;
  return dayjs(now).diff(dayjs(time), 'minute', true) > HEARTBEAT_STALE_MINUTES;
}

export interface ZoneCounts {
  name: string;
  items?: number | null;
  workers?: number | null;
}

export interface ZoneBar {
  zone: string;
  total: number;
  items: number;
  workers: number;
}

/** One bar group per zone: total, items and workers. */
export function zoneBars(zones: readonly ZoneCounts[]): ZoneBar[] {
  return zones.map((z) => {
    const items = z.items ?? 0;
    const workers = z.workers ?? 0;
    return { zone: z.name, total: items + workers, items, workers };
  });
}

export interface ChartSeries {
  dataKey: 'total' | 'items' | 'workers';
  label: string;
}

/** The chart's series; total and workers are left out when workers are hidden. */
export function zoneSeries(labels: {
  item: string;
  worker: string;
  hideWorkers: boolean;
}): ChartSeries[] {
  if (labels.hideWorkers) return [{ dataKey: 'items', label: labels.item }];
  return [
    { dataKey: 'total', label: 'Total' },
    { dataKey: 'items', label: labels.item },
    { dataKey: 'workers', label: labels.worker },
  ];
}

export interface HeartbeatLike {
  endpoint?: string | null;
  time?: string | null;
}

/** Endpoints with their latest heartbeat (from the status list, else their own). */
export function joinStatuses<E extends { _id: string; status?: S | null }, S extends HeartbeatLike>(
  endpoints: readonly E[],
  statuses: readonly S[],
): (E & { latest: S | null })[] {
  const byEndpoint = new Map<string, S>();
  for (const s of statuses) {
    if (!s.endpoint) continue;
    const known = byEndpoint.get(s.endpoint);
    if (!known || dayjs(s.time).isAfter(dayjs(known.time))) byEndpoint.set(s.endpoint, s);
  }
  return endpoints.map((e) => ({ ...e, latest: byEndpoint.get(e._id) ?? e.status ?? null }));
}

/** Oldest (and never) first: the endpoints that need attention lead the table. */
export function compareHeartbeat(a: DateInput, b: DateInput): number {
  const ta = isUnsetDate(a) ? -Infinity : dayjs(a).valueOf();
  const tb = isUnsetDate(b) ? -Infinity : dayjs(b).valueOf();
  return ta === tb ? 0 : ta < tb ? -1 : 1;
}
