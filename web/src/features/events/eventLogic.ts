/** Pure rules of the Events page (spec sections 2 and 9). */
import dayjs from 'dayjs';
import { formatListDate, isUnsetDate, type DateInput } from '../../components/format';
import { UNKNOWN_THING_ID } from '../../constants';

/** Events poll every 5 seconds while the page is visible. */
export const EVENTS_POLL_MS = 5000;

/** Whether an event belongs to a known thing (not the unknown placeholder). */
export function isMatched(event: { thing?: string | null; matched?: boolean | null }): boolean {
  if (!event.thing || event.thing === UNKNOWN_THING_ID) return false;
  return event.matched ?? true;
}

/** The thing page a row opens, or null for the unknown placeholder. */
export function eventThingPath(event: { thing?: string | null }): string | null {
  return event.thing && event.thing !== UNKNOWN_THING_ID ? `/things/${event.thing}` : null;
}

/** Last Full Event: list format; a first time before year 2000 is 'N/A' (spec section 9). */
export function formatFirstTime(value: DateInput): string {
  if (isUnsetDate(value)) return 'N/A';
  if (dayjs(value).year() < 2000) return 'N/A';
  return formatListDate(value);
}

/** The Data column: the reading's value, blank when none. */
export function formatEventData(data: { cFloat0?: number | null } | null | undefined): string {
  const v = data?.cFloat0;
  return typeof v === 'number' && Number.isFinite(v) ? String(v) : '';
}
