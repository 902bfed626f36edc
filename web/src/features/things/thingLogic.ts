/** Pure rules of the item and worker screens (spec sections 2, 5 and 8). */
import type { Thing } from '../../api/types';
import { formatThingDate, isUnsetDate, type DateInput } from '../../components/format';

export type ThingClass = Thing['common']['class'];

export function asThingClass(value: string | undefined): ThingClass {
  return value === 'worker' ? 'worker' : 'item';
}

/** The class a route stands for: items/… and workers/…; things/… takes the thing's own. */
export function classOfPath(pathname: string): ThingClass | undefined {
  if (pathname.startsWith('/items')) return 'item';
  if (pathname.startsWith('/workers')) return 'worker';
  return undefined;
}

export function listPathOf(thingClass: string | undefined): string {
  return thingClass === 'worker' ? '/workers' : '/items';
}

/** The first set date of the zone-time fallback, or undefined when none is set. */
export function zoneTime(state: {
  lastZoneTime?: DateInput;
  lastEndpointTime?: DateInput;
  lastEvent?: DateInput;
}): DateInput {
  return [state.lastZoneTime, state.lastEndpointTime, state.lastEvent].find((d) => !isUnsetDate(d));
}

/** Zone time shown: last zone time, then last endpoint time, then last event, else 'N/A'. */
export function formatZoneTime(state: Parameters<typeof zoneTime>[0]): string {
  const d = zoneTime(state);
  return d === undefined ? 'N/A' : formatThingDate(d);
}

/** A thing date (MM/DD/YYYY hh:mm a); unset dates (before year 1000) are 'N/A'. */
export function formatThingDateOrNA(value: DateInput): string {
  return isUnsetDate(value) ? 'N/A' : formatThingDate(value);
}

interface TagSource {
  tag1?: string | null;
  tag2?: string | null;
  tags?: readonly string[] | null;
}

/** The thing's tag: tag1, else its first other tag. */
export function primaryTag(common: TagSource): string {
  return common.tag1 || common.tags?.find((t) => t) || common.tag2 || '';
}

/** The tag as shown: ' Alarm' appended while the tamper alarm is set. */
export function tagDisplay(common: TagSource, alarmTamper: boolean | null | undefined): string {
  const tag = primaryTag(common);
  return alarmTamper ? `${tag} Alarm` : tag;
}

export type Relation = 'children' | 'parents';

export const PARENT_EXISTS_MESSAGE = 'Parent already exists';

export const UNLINK_MESSAGES = {
  childUnlinked: 'Child Successfully Unlinked',
  parentUnlinked: 'Parent Successfully Unlinked',
  childGone: 'Child has already been disconnected',
  parentGone: 'Parent has already been disconnected',
  parentMissing: 'Parent does not exist (Something major has gone wrong)',
  parentNoLonger: 'Parent no longer exists.',
} as const;

const LINK_MESSAGES = {
  child: 'Child Successfully Linked',
  parent: 'Parent Successfully Linked',
} as const;

interface Linkable {
  _id: string;
  common: { parents?: readonly string[] | null };
}

const parentsOf = (t: Linkable) => t.common.parents ?? [];

export type LinkPlan =
  | { kind: 'put'; target: 'other' | 'self'; parents: string[]; message: string }
  | { kind: 'refuse'; message: string };

/**
 * Linking, from fresh copies: a child gets this thing appended to its parents; in the
 * Parents view this thing gets the parent appended. Either way an existing link is refused.
 */
export function planLink(relation: Relation, self: Linkable, other: Linkable): LinkPlan {
  const child = relation === 'children' ? other : self;
  const parentId = relation === 'children' ? self._id : other._id;
  if (parentsOf(child).includes(parentId))
    return { kind: 'refuse', message: PARENT_EXISTS_MESSAGE };
  return {
    kind: 'put',
    target: relation === 'children' ? 'other' : 'self',
    parents: [...parentsOf(child), parentId],
    message: relation === 'children' ? LINK_MESSAGES.child : LINK_MESSAGES.parent,
  };
}

export type UnlinkPlan =
  | { kind: 'put'; target: 'other' | 'self'; parents: string[]; message: string; ok: boolean }
  | { kind: 'none'; message: string };

/**
 * Unlinking, decided on copies re-read just before the PUT (null: the thing is gone).
 * Children view: this thing is the parent, the row the child. Parents view: the reverse.
 */
export function planUnlink(
  relation: Relation,
  ids: { self: string; other: string },
  self: Linkable | null,
  other: Linkable | null,
): UnlinkPlan {
  if (relation === 'children') {
    if (!self) return { kind: 'none', message: UNLINK_MESSAGES.parentMissing };
    if (!other || !parentsOf(other).includes(ids.self)) {
      return { kind: 'none', message: UNLINK_MESSAGES.childGone };
    }
    return {
      kind: 'put',
      target: 'other',
      parents: parentsOf(other).filter((p) => p !== ids.self),
      message: UNLINK_MESSAGES.childUnlinked,
      ok: true,
    };
  }
  if (!self) return { kind: 'none', message: UNLINK_MESSAGES.parentMissing };
  if (!parentsOf(self).includes(ids.other)) {
    return {
      kind: 'none',
      message: other ? UNLINK_MESSAGES.parentGone : UNLINK_MESSAGES.parentNoLonger,
    };
  }
  const parents = parentsOf(self).filter((p) => p !== ids.other);
  // A parent deleted meanwhile: its dangling id is dropped, and the user told.
  if (!other) {
    return {
      kind: 'put',
      target: 'self',
      parents,
      message: UNLINK_MESSAGES.parentNoLonger,
      ok: false,
    };
  }
  return {
    kind: 'put',
    target: 'self',
    parents,
    message: UNLINK_MESSAGES.parentUnlinked,
    ok: true,
  };
}
