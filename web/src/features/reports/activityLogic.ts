/** Pure rules of the Activity (events by thing) report (spec sections 2 and 9). */
import { UNKNOWN_THING_ID } from '../../constants';

/** Things per page; -1 shows them all. */
export const ACTIVITY_PAGE_SIZES = [4, 8, 12] as const;
export const ALL_ROWS = -1;

interface ActivityDayLike {
  day: string;
}

export interface ActivityThingLike {
  thing: string;
  thingClass: string;
  days: readonly ActivityDayLike[];
}

export type ActivityRow<T, D> =
  | { kind: 'thing'; key: string; thing: T; expanded: boolean }
  | { kind: 'day'; key: string; thing: T; day: D };

/** The things to report: never the unknown placeholder, no workers when they are hidden. */
export function reportedThings<T extends { thing: string; thingClass: string }>(
  things: readonly T[],
  hideWorkers: boolean,
): T[] {
  return things.filter(
    (t) => t.thing !== UNKNOWN_THING_ID && !(hideWorkers && t.thingClass === 'worker'),
  );
}

/** One page of things; a size of -1 (All) is every thing. */
export function pageOf<T>(things: readonly T[], page: number, size: number): T[] {
  if (size === ALL_ROWS) return [...things];
  return things.slice(page * size, page * size + size);
}

/** Table rows: each thing, followed by its days (latest last) when expanded. */
export function activityRows<T extends ActivityThingLike>(
  things: readonly T[],
  expanded: ReadonlySet<string>,
): ActivityRow<T, T['days'][number]>[] {
  const rows: ActivityRow<T, T['days'][number]>[] = [];
  for (const thing of things) {
    const open = expanded.has(thing.thing);
    rows.push({ kind: 'thing', key: thing.thing, thing, expanded: open });
    if (!open) continue;
    const days = [...thing.days].sort((a, b) => a.day.localeCompare(b.day));
    for (const day of days) {
      rows.push({ kind: 'day', key: `${thing.thing}/${day.day}`, thing, day });
    }
  }
  return rows;
}

/** Expand All opens every thing; Collapse All closes them. */
export function toggleAll(things: readonly { thing: string }[], expand: boolean): Set<string> {
  return expand ? new Set(things.map((t) => t.thing)) : new Set();
}

/** Opens or closes one thing. */
export function toggleOne(expanded: ReadonlySet<string>, thing: string): Set<string> {
  const next = new Set(expanded);
  if (next.has(thing)) next.delete(thing);
  else next.add(thing);
  return next;
}
