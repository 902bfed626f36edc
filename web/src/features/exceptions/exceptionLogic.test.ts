import { describe, expect, it } from 'vitest';
import {
  exceptionEventPeriod,
  exceptionMessage,
  exceptionTypeName,
  isInventoryException,
  zoneAlertMinutes,
} from './exceptionLogic';

describe('exception message by type', () => {
  it("gives the zone's alert minutes of a zone time exception", () => {
    const exception = {
      type: 'zoneTimeException',
      timeDuration: 16.5 * 6e10,
      message: 'Pallet 7 in Dock > 5 minute(s)',
    };
    expect(exceptionMessage(exception)).toBe('> 5 minute(s)');
    expect(zoneAlertMinutes(exception)).toBe(5);
    // Without the alert time, the time spent in the zone.
    expect(exceptionMessage({ ...exception, message: '' })).toBe('> 16 minute(s)');
  });

  it('counts the things of inventory exceptions', () => {
    const multipleThings = ['a', 'b', 'c'];
    expect(exceptionMessage({ type: 'inventoryThingsMissing', multipleThings })).toBe(
      'Shortage of 3',
    );
    expect(exceptionMessage({ type: 'inventoryThingsUnexpected', multipleThings })).toBe(
      'Overage of 3',
    );
    expect(exceptionMessage({ type: 'inventoryThingsElsewhere', multipleThings })).toBe(
      '3 expected in another zone',
    );
  });

  it("keeps the server's text for a processing failure", () => {
    expect(exceptionMessage({ type: 'processException', message: 'Unknown endpoint' })).toBe(
      'Unknown endpoint',
    );
  });

  it('shows events for zone time and things for inventory exceptions', () => {
    expect(isInventoryException('zoneTimeException')).toBe(false);
    expect(isInventoryException('inventoryThingsMissing')).toBe(true);
    expect(isInventoryException('inventoryThingsElsewhere')).toBe(true);
    expect(exceptionTypeName('inventoryThingsElsewhere')).toBe('Other zone');
  });

  it('looks at the events of the visit, with five minutes either side', () => {
    // Raised 10 minutes after entry; the thing stayed 30 minutes.
    const period = exceptionEventPeriod({
      time: '2026-03-02T12:00:00Z',
      timeDuration: 30 * 6e10,
      message: 'Crate in Yard > 10 minute(s)',
    });
    expect(period.start.toISOString()).toBe('2026-03-02T11:45:00.000Z');
    expect(period.end.toISOString()).toBe('2026-03-02T12:25:00.000Z');
    const unnamed = exceptionEventPeriod({ time: '2026-03-02T12:00:00Z', timeDuration: 6e10 });
    expect(unnamed.start.toISOString()).toBe('2026-03-02T11:54:00.000Z');
    expect(unnamed.end.toISOString()).toBe('2026-03-02T12:05:00.000Z');
  });
});
