/** The endpoint edit form's values and their mapping to and from the API (logic only). */
import type { Endpoint, EndpointWrite } from '../../api/types';
import { parseNumber, fieldText } from '../../components/formRules';

export interface AntennaRow {
  map: string;
  x: string;
  y: string;
}

export interface EndpointForm {
  name: string;
  uuid: string;
  description: string;
  site: string;
  key: string;
  map: string;
  externalgate: boolean;
  x: string | number | null;
  y: string | number | null;
  autoEnroll: boolean;
  autoEnrollLocation: boolean;
  antennas: AntennaRow[];
}

/** A coordinate as the form's text ('' when missing). */
export const coordinateText = (n: number | null | undefined) =>
  n === null || n === undefined || !Number.isFinite(n) ? '' : String(n);

/** Coordinates as typed to [x, y]; blank or not a number is 0. */
export function toXY(x: unknown, y: unknown): number[] {
  return [parseNumber(x) ?? 0, parseNumber(y) ?? 0];
}

export function endpointToForm(endpoint: Endpoint | undefined, site: string): EndpointForm {
  return {
    name: endpoint?.name ?? '',
    uuid: endpoint?.uuid ?? '',
    description: endpoint?.description ?? '',
    site: endpoint?.site ?? site,
    key: endpoint?.key ?? '',
    map: endpoint?.map ?? '',
    externalgate: endpoint?.externalgate ?? false,
    x: coordinateText(endpoint?.xycoordinates?.[0]),
    y: coordinateText(endpoint?.xycoordinates?.[1]),
    autoEnroll: endpoint?.autoEnroll?.enabled ?? false,
    autoEnrollLocation: endpoint?.autoEnroll?.locationEnabled ?? false,
    antennas: (endpoint?.antennas ?? []).map((a) => ({
      map: a.map ?? '',
      x: coordinateText(a.xycoordinates?.[0]),
      y: coordinateText(a.xycoordinates?.[1]),
    })),
  };
}

/** The body of a save; the key is the server's and is never sent. */
export function formToEndpoint(form: EndpointForm): EndpointWrite {
  return {
    name: form.name.trim(),
    uuid: form.uuid.trim(),
    description: form.description,
    site: form.site,
    map: form.map,
    externalgate: form.externalgate,
    xycoordinates: toXY(form.x, form.y),
    autoEnroll: { enabled: form.autoEnroll, locationEnabled: form.autoEnrollLocation },
    antennas: form.antennas.map((a) => ({ map: a.map.trim(), xycoordinates: toXY(a.x, a.y) })),
  };
}

/** A coordinate cell: blank, or a number. */
export function coordinateProblem(value: string): string | null {
  return value.trim() === '' || parseNumber(value) !== null ? null : 'Not a number';
}

/** The form rule of an X or Y field. */
export function coordinateRule(value: unknown): true | string {
  return coordinateProblem(fieldText(value)) === null || 'must be a number';
}

/** Reader uptime (seconds) as people read it: '3d 4h 12m', '12m 5s'; blank when unknown. */
export function formatUptime(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) {
    return '';
  }
  const s = Math.floor(seconds);
  const days = Math.floor(s / 86_400);
  const hours = Math.floor((s % 86_400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const secs = s % 60;
  const parts: string[] = [];
  if (days) parts.push(`${days}d`);
  if (hours || days) parts.push(`${hours}h`);
  if (minutes || hours || days) parts.push(`${minutes}m`);
  // Seconds matter only for a reader that started within the hour.
  if (!days && !hours) parts.push(`${secs}s`);
  return parts.join(' ');
}

/** Reader temperature in degrees Celsius; blank when not reported. */
export function formatTemperature(celsius: number | null | undefined): string {
  if (celsius === null || celsius === undefined || !Number.isFinite(celsius)) return '';
  return `${Math.round(celsius * 10) / 10} °C`;
}

export const SCAN_MESSAGE = 'Scan this code with the handheld app to pair it with this endpoint.';
export const NO_PAIRING_MESSAGE =
  'The pairing code is shown only to users who may modify endpoints.';
