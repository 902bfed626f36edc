import { parseNumber } from '../../components/formRules';

/** The server's bounds of an organization's history retention (0 keeps history forever). */
const MIN_RETENTION_DAYS = 30;
const MAX_RETENTION_DAYS = 3650;

/** Whole days: 0, or 30 to 3650. Empty means 0. */
export function retentionRule(value: unknown): true | string {
  if (value === '' || value === null || value === undefined) return true;
  const n = parseNumber(value);
  if (n === null || !Number.isInteger(n)) return 'must be a whole number of days';
  if (n === 0 || (n >= MIN_RETENTION_DAYS && n <= MAX_RETENTION_DAYS)) return true;
  return `must be 0 (keep forever) or ${MIN_RETENTION_DAYS} to ${MAX_RETENTION_DAYS} days`;
}

/** The saved value: a number field's parsed value, empty as 0. */
export function retentionDays(value: number | string | null | undefined): number {
  return parseNumber(value) ?? 0;
}
