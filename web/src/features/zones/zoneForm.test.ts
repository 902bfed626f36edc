import { describe, expect, it } from 'vitest';
import type { Zone } from '../../api/types';
import {
  GATE_ANTENNAS,
  formToZone,
  formatAlertTime,
  gatesRule,
  newGate,
  notNegativeRule,
  zoneToForm,
} from './zoneForm';

const zone: Zone = {
  _id: 'z'.repeat(24),
  name: 'Dock',
  description: 'Loading dock',
  site: 's'.repeat(24),
  duration: 15 * 6e10,
  emails: ['ops@example.com'],
  killDuration: 1.5,
  immediateKill: true,
  killMode: 'site',
  gates: [{ endpoint: 'e'.repeat(24), direction: 'OUT', antenna: 3 }],
  items: 4,
  workers: 1,
};

describe('zone form', () => {
  it('shows the alert time in minutes and saves it in nanoseconds', () => {
    const form = zoneToForm(zone, 'other');
    expect(form.alertMinutes).toBe('15');
    expect(form.killDuration).toBe('1.5');
    expect(form.site).toBe(zone.site);
    const body = formToZone({ ...form, alertMinutes: '2.5', name: ' Dock ' });
    expect(body.duration).toBe(150_000_000_000);
    expect(body).toMatchObject({
      name: 'Dock',
      killDuration: 1.5,
      immediateKill: true,
      killMode: 'site',
      gates: zone.gates,
    });
  });

  it('starts a new zone with no alert, the zone delete behaviour and no gates', () => {
    const form = zoneToForm(undefined, 'site1');
    expect(form).toMatchObject({ site: 'site1', alertMinutes: '0', killMode: 'zone', gates: [] });
    expect(formToZone({ ...form, alertMinutes: '' }).duration).toBe(0);
  });

  it('needs an endpoint on every gate', () => {
    expect(gatesRule([])).toBe(true);
    expect(gatesRule([{ ...newGate(), endpoint: 'e1' }])).toBe(true);
    expect(gatesRule([{ ...newGate(), endpoint: 'e1' }, newGate()])).toBe('Please select an value');
  });

  it('offers All and the antennas 0 to 8', () => {
    expect(GATE_ANTENNAS.map((a) => a.value)).toEqual([-1, 0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(GATE_ANTENNAS[0].label).toBe('All');
  });

  it('rejects negative or non-numeric minutes and hours', () => {
    expect(notNegativeRule('')).toBe(true);
    expect(notNegativeRule('0.5')).toBe(true);
    expect(notNegativeRule('-1')).toBe('must not be negative');
    expect(notNegativeRule('x')).toBe('must be a number');
  });

  it('shows the alert time column in minutes', () => {
    expect(formatAlertTime(0)).toBe('');
    expect(formatAlertTime(90 * 6e10)).toBe('90 min');
  });
});
