import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { eventThingPath, formatEventData, formatFirstTime, isMatched } from './eventLogic';

const UNKNOWN = '777777777777777777777777';

describe('event rows', () => {
  it('opens the thing of a matched row only', () => {
    expect(eventThingPath({ thing: '65f0c0ffee0000000000abcd' })).toBe(
      '/things/65f0c0ffee0000000000abcd',
    );
    expect(eventThingPath({ thing: UNKNOWN })).toBeNull();
    expect(eventThingPath({ thing: '' })).toBeNull();
  });

  it('marks the placeholder unmatched', () => {
    expect(isMatched({ thing: UNKNOWN, matched: true })).toBe(false);
    expect(isMatched({ thing: 'abc', matched: false })).toBe(false);
    expect(isMatched({ thing: 'abc', matched: true })).toBe(true);
    expect(isMatched({ thing: 'abc' })).toBe(true);
  });
});

describe('event columns', () => {
  it('shows the first time in the list format, N/A before 2000', () => {
    expect(formatFirstTime(dayjs('2024-03-05T14:07:09').toISOString())).toBe(
      '2024/03/05 02:07:09 pm',
    );
    expect(formatFirstTime('1999-12-31T10:00:00Z')).toBe('N/A');
    expect(formatFirstTime('0001-01-01T00:00:00Z')).toBe('N/A');
  });

  it('shows the data value', () => {
    expect(formatEventData({ cFloat0: 21.5 })).toBe('21.5');
    expect(formatEventData({ cFloat0: null })).toBe('');
    expect(formatEventData(undefined)).toBe('');
  });
});
