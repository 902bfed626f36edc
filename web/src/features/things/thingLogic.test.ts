import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import {
  PARENT_EXISTS_MESSAGE,
  UNLINK_MESSAGES,
  classOfPath,
  formatThingDateOrNA,
  formatZoneTime,
  listPathOf,
  planLink,
  planUnlink,
  tagDisplay,
} from './thingLogic';

const ZERO = '0001-01-01T00:00:00Z';

describe('zone time', () => {
  const zone = dayjs('2024-03-05T14:07:00').toISOString();
  const endpoint = dayjs('2024-03-04T09:30:00').toISOString();
  const event = dayjs('2024-03-03T23:15:00').toISOString();

  it('falls back from zone time to endpoint time to last event', () => {
    expect(
      formatZoneTime({ lastZoneTime: zone, lastEndpointTime: endpoint, lastEvent: event }),
    ).toBe('03/05/2024 02:07 pm');
    expect(
      formatZoneTime({ lastZoneTime: ZERO, lastEndpointTime: endpoint, lastEvent: event }),
    ).toBe('03/04/2024 09:30 am');
    expect(formatZoneTime({ lastZoneTime: null, lastEndpointTime: ZERO, lastEvent: event })).toBe(
      '03/03/2024 11:15 pm',
    );
  });

  it('is N/A when nothing is set, dates before year 1000 counting as unset', () => {
    expect(formatZoneTime({})).toBe('N/A');
    expect(formatZoneTime({ lastZoneTime: ZERO, lastEndpointTime: '0999-12-31T00:00:00Z' })).toBe(
      'N/A',
    );
    expect(formatZoneTime({ lastZoneTime: '0500-01-01T00:00:00Z', lastEvent: event })).toBe(
      '03/03/2024 11:15 pm',
    );
  });

  it('shows other thing dates as N/A before year 1000', () => {
    expect(formatThingDateOrNA(ZERO)).toBe('N/A');
    expect(formatThingDateOrNA(undefined)).toBe('N/A');
    expect(formatThingDateOrNA(zone)).toBe('03/05/2024 02:07 pm');
  });
});

describe('tag display', () => {
  it('appends Alarm while tampered', () => {
    expect(tagDisplay({ tag1: 'E200ABC' }, false)).toBe('E200ABC');
    expect(tagDisplay({ tag1: 'E200ABC' }, true)).toBe('E200ABC Alarm');
  });

  it('falls back to the other tags', () => {
    expect(tagDisplay({ tag1: '', tags: ['', 'T2'] }, false)).toBe('T2');
    expect(tagDisplay({ tag1: '', tags: [], tag2: 'X9' }, true)).toBe('X9 Alarm');
  });
});

describe('routes', () => {
  it('takes the class from the route', () => {
    expect(classOfPath('/items/new')).toBe('item');
    expect(classOfPath('/workers/abc')).toBe('worker');
    expect(classOfPath('/things/abc')).toBeUndefined();
    expect(listPathOf('worker')).toBe('/workers');
    expect(listPathOf(undefined)).toBe('/items');
  });
});

const thing = (id: string, parents: string[] = []) => ({ _id: id, common: { parents } });

describe('linking', () => {
  it('appends this thing to a new child', () => {
    expect(planLink('children', thing('p'), thing('c', ['x']))).toEqual({
      kind: 'put',
      target: 'other',
      parents: ['x', 'p'],
      message: 'Child Successfully Linked',
    });
  });

  it('appends a new parent to this thing', () => {
    expect(planLink('parents', thing('c'), thing('p'))).toMatchObject({
      kind: 'put',
      target: 'self',
      parents: ['p'],
    });
  });

  it('refuses an existing link', () => {
    expect(planLink('children', thing('p'), thing('c', ['p']))).toEqual({
      kind: 'refuse',
      message: PARENT_EXISTS_MESSAGE,
    });
    expect(planLink('parents', thing('c', ['p']), thing('p'))).toEqual({
      kind: 'refuse',
      message: 'Parent already exists',
    });
  });
});

describe('unlinking', () => {
  const ids = { self: 's', other: 'o' };

  it('unlinks a child', () => {
    expect(planUnlink('children', ids, thing('s'), thing('o', ['s', 'z']))).toEqual({
      kind: 'put',
      target: 'other',
      parents: ['z'],
      message: 'Child Successfully Unlinked',
      ok: true,
    });
  });

  it('reports a child already disconnected or deleted', () => {
    expect(planUnlink('children', ids, thing('s'), thing('o', ['z']))).toEqual({
      kind: 'none',
      message: 'Child has already been disconnected',
    });
    expect(planUnlink('children', ids, thing('s'), null).message).toBe(UNLINK_MESSAGES.childGone);
  });

  it('reports this parent gone while unlinking a child', () => {
    expect(planUnlink('children', ids, null, thing('o', ['s'])).message).toBe(
      'Parent does not exist (Something major has gone wrong)',
    );
  });

  it('unlinks a parent', () => {
    expect(planUnlink('parents', ids, thing('s', ['o', 'q']), thing('o'))).toEqual({
      kind: 'put',
      target: 'self',
      parents: ['q'],
      message: 'Parent Successfully Unlinked',
      ok: true,
    });
  });

  it('reports a parent already disconnected', () => {
    expect(planUnlink('parents', ids, thing('s', ['q']), thing('o'))).toEqual({
      kind: 'none',
      message: 'Parent has already been disconnected',
    });
  });

  it('reports a deleted parent, dropping its dangling id', () => {
    expect(planUnlink('parents', ids, thing('s', ['o']), null)).toEqual({
      kind: 'put',
      target: 'self',
      parents: [],
      message: 'Parent no longer exists.',
      ok: false,
    });
    expect(planUnlink('parents', ids, thing('s'), null).message).toBe('Parent no longer exists.');
  });
});
