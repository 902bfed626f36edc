import { describe, expect, it } from 'vitest';
import {
  DEFAULT_BOUNDS,
  clickFraction,
  formatPoint,
  isPlaced,
  mapBounds,
  markerPosition,
  timeSince,
} from './mapLogic';
import { placeables, placementOf } from './placement';
import type { Endpoint, LocationTag } from '../../api/types';

const plan = { topLeft: [0, 625], botRight: [1000, 0] };

describe('map geometry', () => {
  it('turns the corners into Leaflet bounds, south-west first', () => {
    expect(mapBounds(plan)).toEqual([
      [0, 0],
      [625, 1000],
    ]);
    expect(mapBounds(undefined)).toEqual(DEFAULT_BOUNDS);
    expect(mapBounds({ topLeft: [5, 5], botRight: [5, 9] })).toEqual(DEFAULT_BOUNDS);
  });

  it('places fractions of the picture from its top-left corner', () => {
    expect(markerPosition(plan, [0, 0])).toEqual([625, 0]);
    expect(markerPosition(plan, [1, 1])).toEqual([0, 1000]);
    expect(markerPosition(plan, [0.5, 0.2])).toEqual([500, 500]);
  });

  it('reads a click as fractions kept inside the picture', () => {
    const box = { left: 100, top: 50, width: 400, height: 200 };
    expect(clickFraction(box, 300, 100)).toEqual([0.5, 0.25]);
    expect(clickFraction(box, 90, 400)).toEqual([0, 1]);
    expect(clickFraction({ ...box, width: 0 }, 1, 1)).toEqual([0, 0]);
  });

  it('knows what is placed and shows points', () => {
    expect(isPlaced([0, 0])).toBe(false);
    expect(isPlaced([0, 0.3])).toBe(true);
    expect(isPlaced(undefined)).toBe(false);
    expect(formatPoint([0, 625])).toBe('0, 625');
    expect(formatPoint([])).toBe('');
  });
});

describe('timeSince', () => {
  const now = '2026-03-02T12:00:00Z';
  it('says how long ago in words', () => {
    expect(timeSince('2026-03-02T11:59:30Z', now)).toBe('just now');
    expect(timeSince('2026-03-02T11:59:00Z', now)).toBe('1 minute ago');
    expect(timeSince('2026-03-02T09:00:00Z', now)).toBe('3 hours ago');
    expect(timeSince('2026-02-27T12:00:00Z', now)).toBe('3 days ago');
    expect(timeSince('0001-01-01T00:00:00Z', now)).toBe('never');
  });
});

describe('placement', () => {
  const endpoint = {
    _id: 'e1',
    name: 'Dock',
    site: 's1',
    map: '',
    xycoordinates: [0, 0],
    antennas: [{ map: 'm1', xycoordinates: [0.1, 0.2] }],
    key: '',
    status: null,
    qrcode: '',
  } as unknown as Endpoint;
  const tag = {
    _id: 't1',
    name: 'Shelf',
    tag: 'LOC1',
    site: 's1',
    zone: null,
    map: 'm1',
    xycoordinates: [0.5, 0.5],
  } as unknown as LocationTag;

  it('lists endpoints, their antennas, then location tags', () => {
    const entries = placeables([endpoint], [tag]);
    expect(entries.map((e) => [e.kind, e.label, e.map])).toEqual([
      ['endpoint', 'Dock', ''],
      ['antenna', 'Dock · Antenna 0', 'm1'],
      ['locationtag', 'Shelf', 'm1'],
    ]);
  });

  it('saves the whole record with the new place', () => {
    const [reader, antenna, shelf] = placeables([endpoint], [tag]);
    expect(placementOf(reader, 'm1', [0.3, 0.4]).body).toMatchObject({
      map: 'm1',
      xycoordinates: [0.3, 0.4],
      antennas: endpoint.antennas,
    });
    const moved = placementOf(antenna, 'm2', [0.9, 0.9]);
    expect(moved).toMatchObject({ kind: 'endpoint', id: 'e1' });
    expect(moved.body).toMatchObject({
      map: '',
      antennas: [{ map: 'm2', xycoordinates: [0.9, 0.9] }],
    });
    expect(placementOf(shelf, '', [0, 0])).toMatchObject({
      kind: 'locationtag',
      id: 't1',
      body: { map: '', xycoordinates: [0, 0], tag: 'LOC1' },
    });
  });
});
