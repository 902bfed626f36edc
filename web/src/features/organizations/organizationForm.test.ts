import { describe, expect, it } from 'vitest';
import { retentionDays, retentionRule } from './organizationForm';

describe('organization history retention', () => {
  it('takes 0 or whole days from 30 to 3650', () => {
    expect(retentionRule('')).toBe(true);
    expect(retentionRule('0')).toBe(true);
    expect(retentionRule('30')).toBe(true);
    expect(retentionRule(3650)).toBe(true);
    expect(retentionRule('29')).toBe('must be 0 (keep forever) or 30 to 3650 days');
    expect(retentionRule('3651')).toBe('must be 0 (keep forever) or 30 to 3650 days');
    expect(retentionRule('-5')).toBe('must be 0 (keep forever) or 30 to 3650 days');
    expect(retentionRule('45.5')).toBe('must be a whole number of days');
    expect(retentionRule('a year')).toBe('must be a whole number of days');
  });

  it('saves an empty field as 0', () => {
    expect(retentionDays(null)).toBe(0);
    expect(retentionDays('')).toBe(0);
    expect(retentionDays(365)).toBe(365);
  });
});
