import { describe, expect, it } from 'vitest';
import type { Endpoint } from '../../api/types';
import {
  coordinateProblem,
  endpointToForm,
  formToEndpoint,
  formatTemperature,
  formatUptime,
} from './endpointForm';

const endpoint: Endpoint = {
  _id: 'e'.repeat(24),
  name: 'Dock Door 3',
  uuid: 'fx9600-1',
  description: 'North dock',
  site: 's'.repeat(24),
  map: 'm'.repeat(24),
  externalgate: true,
  xycoordinates: [12.5, 40],
  key: 'k'.repeat(32),
  autoEnroll: { enabled: true, locationEnabled: false },
  antennas: [
    { map: '', xycoordinates: [1, 2] },
    { map: 'floor', xycoordinates: [3.5, 0] },
  ],
  status: null,
  qrcode: '{}',
};

describe('endpoint form', () => {
  it('round-trips an endpoint, keeping its map and never sending the key', () => {
    const form = endpointToForm(endpoint, 'other');
    expect(form.site).toBe(endpoint.site);
    expect(form.x).toBe('12.5');
    expect(form.antennas).toEqual([
      { map: '', x: '1', y: '2' },
      { map: 'floor', x: '3.5', y: '0' },
    ]);
    const body = formToEndpoint({ ...form, name: '  Dock Door 3  ' });
    expect(body).not.toHaveProperty('key');
    expect(body).toMatchObject({
      name: 'Dock Door 3',
      map: endpoint.map,
      xycoordinates: [12.5, 40],
      autoEnroll: { enabled: true, locationEnabled: false },
      antennas: endpoint.antennas,
    });
  });

  it('starts a new endpoint in the selected site with blank coordinates saved as 0', () => {
    const form = endpointToForm(undefined, 'site1');
    expect(form).toMatchObject({ site: 'site1', x: '', y: '', antennas: [], key: '' });
    const body = formToEndpoint({ ...form, name: 'New', antennas: [{ map: '', x: '', y: '7' }] });
    expect(body.xycoordinates).toEqual([0, 0]);
    expect(body.antennas).toEqual([{ map: '', xycoordinates: [0, 7] }]);
  });

  it('flags coordinates that are not numbers', () => {
    expect(coordinateProblem('')).toBeNull();
    expect(coordinateProblem('-3.25')).toBeNull();
    expect(coordinateProblem('abc')).toBe('Not a number');
  });
});

describe('status formatting', () => {
  it('shows uptime in days, hours and minutes, seconds only within the hour', () => {
    expect(formatUptime(null)).toBe('');
    expect(formatUptime(0)).toBe('0s');
    expect(formatUptime(45)).toBe('45s');
    expect(formatUptime(725)).toBe('12m 5s');
    expect(formatUptime(3600)).toBe('1h 0m');
    expect(formatUptime(3 * 86_400 + 4 * 3600 + 12 * 60 + 9)).toBe('3d 4h 12m');
  });

  it('shows the temperature in °C, rounded to a tenth', () => {
    expect(formatTemperature(undefined)).toBe('');
    expect(formatTemperature(41.26)).toBe('41.3 °C');
  });
});
