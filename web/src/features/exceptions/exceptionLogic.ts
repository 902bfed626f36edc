/** Pure rules of the exception screens (spec sections 2, 3, 4 and 9). */
import dayjs, { type Dayjs } from 'dayjs';
import { nanosToMinutes } from '../../components/format';

export const ZONE_TIME_EXCEPTION = 'zoneTimeException';
export const INVENTORY_MISSING = 'inventoryThingsMissing';
export const INVENTORY_UNEXPECTED = 'inventoryThingsUnexpected';
export const PROCESS_EXCEPTION = 'processException';

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
      return `> ${Math.floor(nanosToMinutes(exception.timeDuration ?? 0))} minute(s)`;
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

/**
 * The period whose events a zone time exception shows by default: from when the thing entered
 * the zone (the exception time less its time there) to an hour after the exception.
 */
export function exceptionEventPeriod(
  time: string,
  timeDuration: number | null | undefined,
): { start: Dayjs; end: Dayjs } {
  const at = dayjs(time);
  const enteredMs = Math.max(0, (timeDuration ?? 0) / 1e6);
  return { start: at.subtract(enteredMs, 'millisecond'), end: at.add(1, 'hour') };
}
