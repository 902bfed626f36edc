/** Pure rules of the exception screens (spec sections 2, 3, 4 and 9). */
import dayjs, { type Dayjs } from 'dayjs';
import { nanosToMinutes } from '../../components/format';

const ZONE_TIME_EXCEPTION = 'zoneTimeException';
const INVENTORY_MISSING = 'inventoryThingsMissing';
const INVENTORY_UNEXPECTED = 'inventoryThingsUnexpected';
const PROCESS_EXCEPTION = 'processException';

export interface ExceptionLike {
  type: string;
  timeDuration?: number | null;
  multipleThings?: readonly string[] | null;
  zoneName?: string | null;
  message?: string | null;
}

/** Zone time exceptions list events; the inventory kinds list things. */
export function isInventoryException(type: string): boolean {
  return type !== ZONE_TIME_EXCEPTION && type !== PROCESS_EXCEPTION;
}

/**
 * The reason shown for an exception, by its type: '> N minute(s)' (time in the zone),
 * 'Shortage of N', 'Overage of N', 'N expected in another zone'; a processing failure keeps
 * the server's own text.
 */
export function exceptionMessage(exception: ExceptionLike): string {
  const count = exception.multipleThings?.length ?? 0;
  switch (exception.type) {
    case ZONE_TIME_EXCEPTION:
      return `> ${zoneAlertMinutes(exception) ?? Math.floor(nanosToMinutes(exception.timeDuration ?? 0))} minute(s)`;
    case INVENTORY_MISSING:
      return `Shortage of ${count}`;
    case INVENTORY_UNEXPECTED:
      return `Overage of ${count}`;
    case PROCESS_EXCEPTION:
      return exception.message || 'Could not be processed';
    default:
      return `${count} expected in another zone`;
  }
}

/** A readable name of the exception's type for lists. */
export function exceptionTypeName(type: string): string {
  switch (type) {
    case ZONE_TIME_EXCEPTION:
      return 'Zone time';
    case INVENTORY_MISSING:
      return 'Missing';
    case INVENTORY_UNEXPECTED:
      return 'Unexpected';
    case PROCESS_EXCEPTION:
      return 'Processing';
    default:
      return 'Other zone';
  }
}

/** The zone's alert minutes a zone time exception was raised for (named in its message). */
export function zoneAlertMinutes(exception: ExceptionLike): number | null {
  const match = /> (\d+) minute\(s\)/.exec(exception.message ?? '');
  return match ? Number(match[1]) : null;
}

/** Margin around a visit when listing its events. */
const EVENT_MARGIN_MINUTES = 5;

/**
 * The period whose events a zone time exception shows by default: the visit, from when the
 * thing entered the zone (the exception time less the alert minutes) to the end of the time
 * it had spent there, with a few minutes either side.
 */
export function exceptionEventPeriod(exception: {
  time: string;
  timeDuration?: number | null;
  message?: string | null;
}): { start: Dayjs; end: Dayjs } {
  const at = dayjs(exception.time);
  const spentMs = Math.max(0, (exception.timeDuration ?? 0) / 1e6);
  const alert = zoneAlertMinutes({ type: ZONE_TIME_EXCEPTION, message: exception.message });
  const entered =
    alert === null ? at.subtract(spentMs, 'millisecond') : at.subtract(alert, 'minute');
  const left = dayjs(Math.max(at.valueOf(), entered.valueOf() + spentMs));
  return {
    start: entered.subtract(EVENT_MARGIN_MINUTES, 'minute'),
    end: left.add(EVENT_MARGIN_MINUTES, 'minute'),
  };
}
