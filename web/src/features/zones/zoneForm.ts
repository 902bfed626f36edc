/** The zone edit form's values and their mapping to and from the API (logic only). */
import type { Gate, Zone, ZoneWrite } from '../../api/types';
import { nanosToMinutes, unitToNanos } from '../../components/format';
import { parseNumber } from '../../components/formRules';

export const GATE_DIRECTIONS = ['NEAR', 'GONE', 'IN', 'OUT'] as const;
export type GateDirection = (typeof GATE_DIRECTIONS)[number];

/** Antenna choices of a gate: All (-1), then ports 0 to 8. */
export const GATE_ANTENNAS: { value: number; label: string }[] = [
  { value: -1, label: 'All' },
  ...Array.from({ length: 9 }, (_v, i) => ({ value: i, label: String(i) })),
];

export const GATE_ENDPOINT_MESSAGE = 'Please select an value';

export interface GateRow {
  endpoint: string;
  direction: GateDirection;
  antenna: number;
}

export interface ZoneForm {
  name: string;
  description: string;
  site: string;
  /** Alert time in minutes (the API keeps nanoseconds); 0 means no alert. */
  alertMinutes: string | number | null;
  emails: string[];
  /** Delete delay in hours. */
  killDuration: string | number | null;
  immediateKill: boolean;
  killMode: ZoneWrite['killMode'];
  gates: GateRow[];
}

export const newGate = (): GateRow => ({ endpoint: '', direction: 'IN', antenna: -1 });

export function zoneToForm(zone: Zone | undefined, site: string): ZoneForm {
  return {
    name: zone?.name ?? '',
    description: zone?.description ?? '',
    site: zone?.site ?? site,
    alertMinutes: zone ? String(nanosToMinutes(zone.duration ?? 0)) : '0',
    emails: zone?.emails ?? [],
    killDuration: zone ? String(zone.killDuration ?? 0) : '0',
    immediateKill: zone?.immediateKill ?? false,
    killMode: zone?.killMode ?? 'zone',
    gates: (zone?.gates ?? []).map((g) => ({
      endpoint: g.endpoint ?? '',
      direction: g.direction,
      antenna: g.antenna ?? -1,
    })),
  };
}

export function formToZone(form: ZoneForm): ZoneWrite {
  return {
    name: form.name.trim(),
    description: form.description,
    site: form.site,
    duration: unitToNanos(parseNumber(form.alertMinutes) ?? 0, 'minutes'),
    emails: form.emails,
    killDuration: parseNumber(form.killDuration) ?? 0,
    immediateKill: form.immediateKill,
    killMode: form.killMode,
    gates: form.gates.map((g): Gate => ({ ...g })),
  };
}

/** Every gate names its endpoint; otherwise the spec's message. */
export function gatesRule(gates: readonly GateRow[]): true | string {
  return gates.every((g) => g.endpoint !== '') || GATE_ENDPOINT_MESSAGE;
}

/** Minutes and hours: blank (0) or a number of 0 or more. */
export function notNegativeRule(value: unknown): true | string {
  const n = parseNumber(value);
  if (n === null)
    return value === '' || value === null || value === undefined || 'must be a number';
  return n >= 0 || 'must not be negative';
}

/** The list's alert time column: minutes, blank when there is no alert. */
export function formatAlertTime(nanos: number | null | undefined): string {
  if (!nanos) return '';
  const minutes = nanosToMinutes(nanos);
  return `${Math.round(minutes * 100) / 100} min`;
}
