import { describe, expect, it } from 'vitest';
import examples from './emailExamples.json';
import { isEmail } from './formRules';

// The server runs the same examples against its rule (server/tests/test_email_rules.py).
describe('isEmail', () => {
  it.each(examples.addresses)('accepts %j', (value) => {
    expect(isEmail(value)).toBe(true);
  });
  // Addresses the server takes for mail but refuses as usernames: it tells why on saving.
  it.each(examples.addressesNotUsernames)('accepts %j as an address', (value) => {
    expect(isEmail(value)).toBe(true);
  });
  it.each(examples.notAddresses)('refuses %j', (value) => {
    expect(isEmail(value)).toBe(false);
  });
});
