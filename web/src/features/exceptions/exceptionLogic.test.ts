import { describe, expect, it } from 'vitest';
import {
  exceptionEventPeriod,
  exceptionMessage,
  exceptionTypeName,
  isInventoryException,
} from './exceptionLogic';

describe('exception message by type', () => {
  it('gives the minutes of a zone time exception', () => {
    expect(exceptionMessage({ type: 'zoneTimeException', timeDuration: 16.5 * 6e10 })).toBe(
      '> 16 minute(s)',
    );
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

  it('looks at events from the zone entry to an hour after the exception', () => {
    const period = exceptionEventPeriod('2026-03-02T12:00:00Z', 30 * 6e10);
    expect(period.start.toISOString()).toBe('2026-03-02T11:30:00.000Z');
    expect(period.end.toISOString()).toBe('2026-03-02T13:00:00.000Z');
  });
});
