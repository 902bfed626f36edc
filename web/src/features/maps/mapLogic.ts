/** Map geometry and texts (logic only): picture fractions to map units, time since. */
import dayjs from 'dayjs';
import { isUnsetDate, type DateInput } from '../../components/format';

/** SPEC section 9: the map view refreshes every 10 s. */
export const MAP_REFRESH_MS = 10_000;
export const MAP_ZOOM = { min: -2, max: 4, step: 0.1 } as const;
/** [[south, west], [north, east]] of a map without its own corners. */
export const DEFAULT_BOUNDS: [[number, number], [number, number]] = [
  [0, 0],
  [1000, 1000],
];

type XY = readonly number[] | null | undefined;

export interface Corners {
  topLeft?: readonly number[];
  botRight?: readonly number[];
}

/** The picture's bounds as Leaflet [lat, lng] pairs (y is the latitude, growing upwards). */
export function mapBounds(map: Corners | undefined): [[number, number], [number, number]] {
  const [left, top] = map?.topLeft ?? [];
  const [right, bottom] = map?.botRight ?? [];
  if ([left, top, right, bottom].some((v) => v === undefined || !Number.isFinite(v))) {
    return DEFAULT_BOUNDS;
  }
  const [l, t, r, b] = [left, top, right, bottom];
  if (l === r || t === b) return DEFAULT_BOUNDS;
  return [
    [Math.min(t, b), Math.min(l, r)],
    [Math.max(t, b), Math.max(l, r)],
  ];
}

/** Where a point at fractions [x, y] of the picture (from its top-left) lies, as [lat, lng]. */
export function markerPosition(map: Corners, xy: XY): [number, number] {
  const [fx = 0, fy = 0] = xy ?? [];
  const [left = 0, top = DEFAULT_BOUNDS[1][0]] = map.topLeft ?? [];
  const [right = DEFAULT_BOUNDS[1][1], bottom = 0] = map.botRight ?? [];
  return [top + fy * (bottom - top), left + fx * (right - left)];
}

/** [0, 0] (or nothing) means not placed on a map. */
export function isPlaced(xy: XY): boolean {
  return !!xy && xy.length >= 2 && (xy[0] !== 0 || xy[1] !== 0);
}

/** The fractions [x, y] of a click inside a box, rounded to 4 places and kept inside. */
export function clickFraction(
  box: { left: number; top: number; width: number; height: number },
  clientX: number,
  clientY: number,
): [number, number] {
  const clamp = (v: number) => Math.min(1, Math.max(0, Math.round(v * 10_000) / 10_000));
  if (box.width <= 0 || box.height <= 0) return [0, 0];
  return [clamp((clientX - box.left) / box.width), clamp((clientY - box.top) / box.height)];
}

/** 'x, y' for the list columns. */
export function formatPoint(xy: XY): string {
  if (!xy || xy.length < 2) return '';
  return `${xy[0]}, ${xy[1]}`;
}

/** Time since the last event in words: 'just now', '5 minutes ago', 'never'. */
export function timeSince(value: DateInput, now: DateInput = dayjs()): string {
  if (value === null || value === undefined || isUnsetDate(value)) return 'never';
  const seconds = Math.max(0, dayjs(now).diff(dayjs(value), 'second'));
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'} ago`;
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return plural(Math.floor(seconds / 60), 'minute');
  if (seconds < 86_400) return plural(Math.floor(seconds / 3600), 'hour');
  return plural(Math.floor(seconds / 86_400), 'day');
}
