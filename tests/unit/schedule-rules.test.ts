import { z } from 'zod';
import { accountEmailField } from '@/lib/auth/schemas';
import { contactSchema } from '@/lib/contacts/schemas';
import { isEmailAddress } from '@/lib/email-address';
import { emailField } from '@/lib/email-field';
import * as server from '@/lib/events/schemas';
import * as rules from '@/lib/event-rules/limits';

// lib/event-rules/ holds the event rules once, as plain values and checks, for the server's
// schemas and the schedule wizard alike. The e-mail rule is lib/email-address.ts, with the zod
// field of every schema built on it (lib/email-field.ts): the page's check, the schemas and zod's
// own z.email() must agree on every kind of address.
describe('the schedule wizard checks the server’s event rules', () => {
  it('the server builds its schemas from the same values', () => {
    expect(server.DEFAULT_TITLE).toBe(rules.DEFAULT_TITLE);
    expect(server.durations).toBe(rules.durations);
    expect(server.notificationChoices).toBe(rules.notificationChoices);
  });

  it.each([
    'ada@example.com',
    '  ada@example.com  ',
    'Ada.Lovelace+meet@sub.example.co.uk',
    "o'brien@example.ie",
    'a_b-c@ex-ample.org',
    'no-at-sign.example.com',
    'two@@example.com',
    '.lead@example.com',
    'trail.@example.com',
    'dou..ble@example.com',
    'ada@example',
    'ada@example.c',
    'ada@-example.com',
    'ada@exa_mple.com',
    'ünï@example.com',
    'ada@例え.jp',
    '',
    ' ',
    `${'a'.repeat(245)}@example.com`,
    `${'a'.repeat(242)}@example.com`,
  ])('address %p: the same answer from the page’s check, every schema and zod', (address) => {
    const zods = z.string().trim().max(254).email().safeParse(address).success;
    expect(isEmailAddress(address)).toBe(zods);
    expect(emailField({ invalid: 'format_email' }).safeParse(address).success).toBe(zods);
    expect(server.attendeeSchema.safeParse(address).success).toBe(zods);
    expect(accountEmailField.safeParse(address).success).toBe(zods);
    if (address.trim()) expect(contactSchema.safeParse({ name: 'Ada', email: address }).success).toBe(zods);
  });
});
