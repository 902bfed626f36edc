import { describe, expect, it } from 'vitest';
import { formatHoursMinutes } from '../../components/format';
import { UNKNOWN_THING_ID } from '../../constants';
import {
  ALL_ROWS,
  activityRows,
  pageOf,
  reportedThings,
  toggleAll,
  toggleOne,
} from './activityLogic';

const day = (d: string) => ({ day: d });
const things = [
  { thing: 'a', thingClass: 'item', days: [day('2026-03-02'), day('2026-03-01')] },
  { thing: 'b', thingClass: 'worker', days: [day('2026-03-01')] },
  { thing: UNKNOWN_THING_ID, thingClass: 'item', days: [day('2026-03-01')] },
];

describe('activity grouping', () => {
  it('shows one row per thing while collapsed', () => {
    const rows = activityRows(reportedThings(things, false), new Set());
    expect(rows.map((r) => r.key)).toEqual(['a', 'b']);
  });

  it('puts the days of an expanded thing under it, oldest first', () => {
    const rows = activityRows(reportedThings(things, false), new Set(['a']));
    expect(rows.map((r) => [r.kind, r.key])).toEqual([
      ['thing', 'a'],
      ['day', 'a/2026-03-01'],
      ['day', 'a/2026-03-02'],
      ['thing', 'b'],
    ]);
  });

  it('expands and collapses all or one', () => {
    const all = toggleAll(things, true);
    expect([...all].sort()).toEqual([UNKNOWN_THING_ID, 'a', 'b'].sort());
    expect(toggleAll(things, false).size).toBe(0);
    expect([...toggleOne(new Set(['a']), 'b')].sort()).toEqual(['a', 'b']);
    expect([...toggleOne(new Set(['a']), 'a')]).toEqual([]);
  });

  it('leaves out the placeholder thing, and workers when hidden', () => {
    expect(reportedThings(things, true).map((t) => t.thing)).toEqual(['a']);
  });

  it('pages things by 4, 8, 12 or all', () => {
    const many = Array.from({ length: 10 }, (_, i) => i);
    expect(pageOf(many, 0, 4)).toEqual([0, 1, 2, 3]);
    expect(pageOf(many, 2, 4)).toEqual([8, 9]);
    expect(pageOf(many, 0, 12)).toHaveLength(10);
    expect(pageOf(many, 0, ALL_ROWS)).toHaveLength(10);
  });

  it('shows hours as hours:minutes', () => {
    expect(formatHoursMinutes(125 * 6e10)).toBe('2:05');
    expect(formatHoursMinutes(0)).toBe('0:00');
  });
});
