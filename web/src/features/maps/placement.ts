/** What can be placed on a floor plan: readers, their antennas and location tags (logic only). */
import type { Endpoint, EndpointWrite, LocationTag, LocationTagWrite } from '../../api/types';

export type PlaceableKind = 'endpoint' | 'antenna' | 'locationtag';

export interface Placeable {
  key: string;
  kind: PlaceableKind;
  label: string;
  map: string;
  xy: number[];
  endpoint?: Endpoint;
  antenna?: number;
  locationTag?: LocationTag;
}

export const KIND_LABELS: Record<PlaceableKind, string> = {
  endpoint: 'Endpoint',
  antenna: 'Antenna',
  locationtag: 'Location tag',
};

/** Endpoints (each followed by its antennas) then location tags, as placeable entries. */
export function placeables(endpoints: Endpoint[], tags: LocationTag[]): Placeable[] {
  const out: Placeable[] = [];
  for (const endpoint of endpoints) {
    out.push({
      key: `endpoint:${endpoint._id}`,
      kind: 'endpoint',
      label: endpoint.name,
      map: endpoint.map ?? '',
      xy: endpoint.xycoordinates ?? [0, 0],
      endpoint,
    });
    (endpoint.antennas ?? []).forEach((antenna, index) => {
      out.push({
        key: `antenna:${endpoint._id}:${index}`,
        kind: 'antenna',
        label: `${endpoint.name} · Antenna ${index}`,
        map: antenna.map ?? '',
        xy: antenna.xycoordinates ?? [0, 0],
        endpoint,
        antenna: index,
      });
    });
  }
  for (const tag of tags) {
    out.push({
      key: `locationtag:${tag._id}`,
      kind: 'locationtag',
      label: tag.name,
      map: tag.map ?? '',
      xy: tag.xycoordinates ?? [0, 0],
      locationTag: tag,
    });
  }
  return out;
}

export type Placement =
  | { kind: 'endpoint'; id: string; body: EndpointWrite }
  | { kind: 'locationtag'; id: string; body: LocationTagWrite };

/** The whole record to save so that the entry sits on `map` at `xy` ('' and [0, 0]: off). */
export function placementOf(entry: Placeable, map: string, xy: number[]): Placement {
  if (entry.locationTag) {
    return {
      kind: 'locationtag',
      id: entry.locationTag._id,
      body: { ...entry.locationTag, map, xycoordinates: xy },
    };
  }
  const endpoint = entry.endpoint;
  if (!endpoint) throw new Error(`${entry.key} has no endpoint`);
  if (entry.kind === 'antenna') {
    const antennas = (endpoint.antennas ?? []).map((a, i) =>
      i === entry.antenna ? { ...a, map, xycoordinates: xy } : a,
    );
    return { kind: 'endpoint', id: endpoint._id, body: { ...endpoint, antennas } };
  }
  return { kind: 'endpoint', id: endpoint._id, body: { ...endpoint, map, xycoordinates: xy } };
}
