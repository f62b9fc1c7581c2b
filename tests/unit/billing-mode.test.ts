import { billingMode, billingModeNote, type BillingSettings } from '@/lib/configuration/billing-mode';
import { checkStartup } from '@/lib/startup-checks';
import { participantLimit, roomLimit, type PrivateLimits } from '@/lib/rooms/limits';

// Issue 35, item 1: two modes, chosen by configuration; one rule decides which.
const keys = { secretKey: 'sk_test_x', publishableKey: 'pk_test_x' };
const settings = (over: Partial<BillingSettings>): BillingSettings => ({ onPremise: false, stripe: {}, ...over });

describe('billingMode', () => {
  it.each([
    ['a fresh install: no keys, nothing set', settings({}), 'off', /no STRIPE_SECRET_KEY/],
    ['both Stripe keys', settings({ stripe: keys }), 'stripe', /STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY are set/],
    ['BILLING=stripe with both keys', settings({ billing: 'stripe', stripe: keys }), 'stripe', /BILLING=stripe/],
    ['BILLING=off, even with keys', settings({ billing: 'off', stripe: keys }), 'off', /BILLING=off/],
    ['BILLING=OFF (any case)', settings({ billing: 'OFF' }), 'off', /BILLING=off/],
    ['ON_PREMISE=true, even with keys', settings({ onPremise: true, stripe: keys }), 'off', /ON_PREMISE=true/],
    ['ON_PREMISE=true and BILLING=off agree', settings({ onPremise: true, billing: 'off' }), 'off', /BILLING=off/],
  ] as const)('%s → %s', (_name, input, mode, reason) => {
    const answer = billingMode(input);
    expect(answer.mode).toBe(mode);
    expect(answer.reason).toMatch(reason);
    expect(answer.problem).toBeUndefined();
  });

  it.each([
    ['BILLING=stripe without keys', settings({ billing: 'stripe' }), /BILLING=stripe needs STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY/],
    ['BILLING=stripe with the secret key only', settings({ billing: 'stripe', stripe: { secretKey: 'sk' } }), /needs STRIPE_PUBLISHABLE_KEY/],
    ['BILLING=stripe with ON_PREMISE=true', settings({ billing: 'stripe', onPremise: true, stripe: keys }), /contradict/],
    ['one key without the other', settings({ stripe: { publishableKey: 'pk' } }), /STRIPE_SECRET_KEY is missing/],
    ['an unknown BILLING', settings({ billing: 'paypal' }), /BILLING=paypal is not a mode/],
  ] as const)('%s stops the server', (_name, input, problem) => {
    expect(billingMode(input).problem).toMatch(problem);
  });

  it('the start-up log says the mode and why in one line', () => {
    const base = { production: false, appUrl: 'http://localhost:3000', mailLog: false, env: {} };
    const off = checkStartup({ ...base, billingSettings: settings({}) });
    expect(off.problems).toEqual([]);
    expect(off.notes.filter((note) => note.startsWith('Billing'))).toEqual([
      'Billing off: no STRIPE_SECRET_KEY (a private server: no trial, limits from the admin\u2019s configuration)',
    ]);
    const on = checkStartup({ ...base, billingSettings: settings({ stripe: keys }) });
    expect(on.notes.filter((note) => note.startsWith('Billing'))).toHaveLength(1);
    expect(on.notes.join('\n')).toMatch(/^Billing on: STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY are set/m);
    const refused = checkStartup({ ...base, billingSettings: settings({ billing: 'stripe' }) });
    expect(refused.problems.join('\n')).toMatch(/BILLING=stripe needs STRIPE_SECRET_KEY/);
    expect(refused.notes.join('\n')).not.toMatch(/^Billing/m);
  });

  it('the note names the mode', () => {
    expect(billingModeNote({ mode: 'off', reason: 'BILLING=off' })).toBe('Billing off: BILLING=off');
    expect(billingModeNote({ mode: 'stripe', reason: 'BILLING=stripe' })).toMatch(/^Billing on: BILLING=stripe/);
  });
});

describe('limits without billing: the configured value or the operator grant, whichever is larger', () => {
  const configured: PrivateLimits = { roomsPerUser: 10, participantsPerMeeting: 30 };

  it.each([
    ['a new account (1 room on record)', 1, 10],
    ['a grant below the configuration', 5, 10],
    ['a grant above it (set-plan executive 25)', 25, 25],
    ['an enterprise grant', 500, 500],
  ])('rooms: %s → %i', (_name, numberOfRooms, limit) => {
    expect(roomLimit({ numberOfRooms }, configured)).toBe(limit);
  });

  it('rooms: the configuration alone when it is larger than any grant', () => {
    expect(roomLimit({ numberOfRooms: 30 }, { ...configured, roomsPerUser: 100 })).toBe(100);
  });

  it('participants: a trial means nothing; a granted plan keeps at least SPEC\u2019s 30', () => {
    expect(participantLimit({ isTrial: true }, configured)).toBe(30);
    expect(participantLimit({ isTrial: true }, { ...configured, participantsPerMeeting: 12 })).toBe(12);
    expect(participantLimit({ isTrial: false }, { ...configured, participantsPerMeeting: 12 })).toBe(30);
    expect(participantLimit({ isTrial: false }, { ...configured, participantsPerMeeting: 45 })).toBe(45);
  });

  it('with billing on, SPEC: the plan alone', () => {
    expect(roomLimit({ numberOfRooms: 1 }, null)).toBe(1);
    expect(participantLimit({ isTrial: true }, null)).toBe(2);
  });
});
