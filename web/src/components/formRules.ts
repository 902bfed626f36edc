/** Validation texts of the generic form (spec section 5). */

export const SELECT_ITEM_MESSAGE = 'Please select an item.';
export const FILL_REQUIRED_MESSAGE = 'Please fill out all required fields';

export function requiredMessage(field: string, tab: string): string {
  return `${field} in the ${tab} tab is a required field.`;
}

export function ruleMessage(field: string, tab: string, message: string): string {
  return `${field} in the ${tab} tab: ${message}`;
}

/** The snackbar text for a field's error: required, or a custom rule's message. */
export function validationMessage(
  field: string,
  tab: string,
  error: { type?: string; message?: string },
): string {
  if (error.type === 'required') return requiredMessage(field, tab);
  return ruleMessage(field, tab, error.message || 'is not valid');
}

// The server's rule for addresses (server/tagtrack/kit/schemas.py), on the shared examples.
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export function isEmail(value: string): boolean {
  return EMAIL.test(value.trim());
}

/** Number fields hold text while typed; they are saved as floats (empty is null). */
export function parseNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string' || value.trim() === '') return null;
  const n = Number.parseFloat(value);
  return Number.isFinite(n) ? n : null;
}

/** A field's value as text for a rule: fields hold strings, numbers or booleans. */
export function fieldText(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return String(value);
  }
  return '';
}
