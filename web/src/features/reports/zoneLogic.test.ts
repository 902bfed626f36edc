import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { formatHms } from '../../components/format';
import { UNKNOWN_THING_ID } from '../../constants';
import {
  isOverZoneTime,
  nanosInZone,
  nanosToHours,
  occupancyByZone,
  zoneMaxMinutes,
} from './zoneLogic';

const MINUTE = 6e10;
const now = dayjs('2026-03-02T12:00:00Z');

describe('live zone red rows', () => {
  it("takes the zone's maximum minutes from its nanoseconds", () => {
    expect(zoneMaxMinutes(15 * MINUTE)).toBe(15);
    expect(zoneMaxMinutes(90e9)).toBe(1.5);
    expect(zoneMaxMinutes(0)).toBe(0);
    expect(zoneMaxMinutes(null)).toBe(0);
  });

  it('turns red only once the time in the zone exceeds the maximum', () => {
    expect(isOverZoneTime('2026-03-02T11:50:00Z', 10 * MINUTE, now)).toBe(false);
    expect(isOverZoneTime('2026-03-02T11:49:59Z', 10 * MINUTE, now)).toBe(true);
    expect(isOverZoneTime('2026-03-02T11:58:00Z', 10 * MINUTE, now)).toBe(false);
  });

  it('never turns red without a maximum or an entry time', () => {
    expect(isOverZoneTime('2026-01-01T00:00:00Z', 0, now)).toBe(false);
    expect(isOverZoneTime('0001-01-01T00:00:00Z', MINUTE, now)).toBe(false);
  });

  it('counts the time in the zone as h:mm:ss', () => {
    expect(formatHms(nanosInZone('2026-03-02T10:54:05Z', now))).toBe('1:05:55');
    expect(formatHms(nanosInZone('2026-03-02T12:00:10Z', now))).toBe('0:00:00');
    expect(nanosInZone('0001-01-01T00:00:00Z', now)).toBe(0);
  });
});

describe('zone occupancy', () => {
  const zones = [
    { _id: 'z1', name: 'Dock', duration: MINUTE },
    { _id: 'z2', name: 'Yard' },
  ];
  const thing = (id: string, zone: string, since: string, cls = 'item') => ({
    _id: id,
    common: { name: id, class: cls },
    state: { zone, lastZoneTime: since },
  });
  const things = [
    thing('late', 'z1', '2026-03-02T11:00:00Z'),
    thing('early', 'z1', '2026-03-02T09:00:00Z'),
    thing('picker', 'z1', '2026-03-02T10:00:00Z', 'worker'),
    thing('nowhere', '', '2026-03-02T10:00:00Z'),
    thing(UNKNOWN_THING_ID, 'z2', '2026-03-02T10:00:00Z'),
  ];

  it('lists every zone with its things, longest there first', () => {
    const result = occupancyByZone(zones, things, false);
    expect(result.map((o) => o.things.map((t) => t._id))).toEqual([
      ['early', 'picker', 'late'],
      [],
    ]);
    expect(result[0]).toMatchObject({ items: 2, workers: 1 });
  });

  it('leaves workers out when they are hidden', () => {
    const result = occupancyByZone(zones, things, true);
    expect(result[0]?.things.map((t) => t._id)).toEqual(['early', 'late']);
    expect(result[0]).toMatchObject({ items: 2, workers: 0 });
  });
});

describe('zones history graph', () => {
  it('draws hours and labels h:mm:ss', () => {
    expect(nanosToHours(75 * MINUTE)).toBe(1.25);
    expect(formatHms(75 * MINUTE)).toBe('1:15:00');
  });
});
