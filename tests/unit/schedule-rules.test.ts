import * as server from '@/lib/events/schemas';
import * as rules from '@/lib/events/rules/limits';

// lib/events/rules/limits.ts holds the event rules once, as plain values, for the server's schemas and
// the schedule wizard alike. The one rule it cannot share is the e-mail check: the server's is
// zod's, the wizard's a copy of its pattern — so the two must agree on every kind of address.
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
  ])('address %p: same answer as the server’s attendee schema', (address) => {
    expect(rules.isAttendeeEmail(address)).toBe(server.attendeeSchema.safeParse(address).success);
  });
});
