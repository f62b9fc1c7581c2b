import * as server from '@/lib/events/schemas';
import * as rules from '@/lib/schedule/rules';

// lib/schedule/rules.ts repeats, without zod, the rules of lib/events/schemas.ts that the wizard
// checks in the browser (issue 17 goal 4). The server's are the rule: these must equal them.
describe('the schedule wizard checks the server’s event rules', () => {
  it('same constants', () => {
    expect(rules.DEFAULT_TITLE).toBe(server.DEFAULT_TITLE);
    expect(rules.TITLE_MIN).toBe(server.TITLE_MIN);
    expect(rules.EVENT_PASSWORD_MIN).toBe(server.EVENT_PASSWORD_MIN);
    expect(rules.durations).toEqual(server.durations);
    expect(rules.notificationChoices).toEqual(server.notificationChoices);
    expect(rules.DEFAULT_NOTIFICATIONS).toEqual(server.DEFAULT_NOTIFICATIONS);
  });

  it('same durations, lead times and notification keys', () => {
    for (const duration of [...server.durations, '3:45', '0:05']) {
      expect(rules.durationMinutes(duration)).toBe(server.durationMinutes(duration));
    }
    for (const choice of server.notificationChoices) {
      expect(rules.leadMinutes(choice)).toBe(server.leadMinutes(choice));
      expect(rules.notificationKey(choice)).toBe(server.notificationKey(choice));
    }
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
