import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import {
  compareHeartbeat,
  isHeartbeatStale,
  joinStatuses,
  zoneBars,
  zoneSeries,
} from './homeLogic';

describe('heartbeat staleness', () => {
  const now = dayjs('2024-06-01T12:00:00Z');

  it('is stale after 60 minutes', () => {
    expect(isHeartbeatStale('2024-06-01T11:30:00Z', now)).toBe(false);
    expect(isHeartbeatStale('2024-06-01T11:00:00Z', now)).toBe(false);
    expect(isHeartbeatStale('2024-06-01T10:59:00Z', now)).toBe(true);
  });

  it('is stale without a heartbeat', () => {
    expect(isHeartbeatStale(null, now)).toBe(true);
    expect(isHeartbeatStale('0001-01-01T00:00:00Z', now)).toBe(true);
  });

  it('sorts never and oldest first', () => {
    const times = ['2024-06-01T11:00:00Z', null, '2024-06-01T09:00:00Z'];
    expect([...times].sort(compareHeartbeat)).toEqual([
      null,
      '2024-06-01T09:00:00Z',
      '2024-06-01T11:00:00Z',
    ]);
  });
});

describe('zone overview', () => {
  it('counts total, items and workers per zone', () => {
    expect(zoneBars([{ name: 'Dock', items: 3, workers: 2 }, { name: 'Yard' }])).toEqual([
      { zone: 'Dock', total: 5, items: 3, workers: 2 },
      { zone: 'Yard', total: 0, items: 0, workers: 0 },
    ]);
  });

  it('hides total and workers with hideWorkers', () => {
    const labels = { item: 'Assets', worker: 'Staff' };
    expect(zoneSeries({ ...labels, hideWorkers: false }).map((s) => s.label)).toEqual([
      'Total',
      'Assets',
      'Staff',
    ]);
    expect(zoneSeries({ ...labels, hideWorkers: true })).toEqual([
      { dataKey: 'items', label: 'Assets' },
    ]);
  });
});

describe('endpoint status', () => {
  it('joins the latest heartbeat per endpoint', () => {
    const rows = joinStatuses(
      [
        { _id: 'a', name: 'Gate A', status: null },
        { _id: 'b', name: 'Gate B', status: { endpoint: 'b', time: '2024-01-01T00:00:00Z' } },
        { _id: 'c', name: 'Gate C', status: null },
      ],
      [
        { endpoint: 'a', time: '2024-06-01T10:00:00Z' },
        { endpoint: 'a', time: '2024-06-01T11:00:00Z' },
      ],
    );
    expect(rows.map((r) => r.latest?.time ?? null)).toEqual([
      '2024-06-01T11:00:00Z',
      '2024-01-01T00:00:00Z',
      null,
    ]);
  });
});
