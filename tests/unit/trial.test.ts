import { needsBillingModal, trialEnded } from '@/lib/billing/trial';

const now = new Date('2026-11-22T12:00:00Z');
const ended = new Date('2026-11-20T12:00:00Z');
const running = new Date('2026-11-30T12:00:00Z');

describe('SPEC point 4: the billing modal after the trial', () => {
  it.each([
    ['an admin of a free account out of trial', { role: 'admin', isTrial: true, trialEndsAt: ended }, true, true],
    ['an admin still in trial', { role: 'admin', isTrial: true, trialEndsAt: running }, true, false],
    ['a plain user out of trial (only admins get the check)', { role: 'user', isTrial: true, trialEndsAt: ended }, true, false],
    ['a paying admin', { role: 'admin', isTrial: false, trialEndsAt: ended }, true, false],
    ['an admin out of trial on a server without billing', { role: 'admin', isTrial: true, trialEndsAt: ended }, false, false],
  ] as const)('%s → %s', (_name, user, billingOn, expected) => {
    expect(needsBillingModal({ ...user }, billingOn, now)).toBe(expected);
  });

  it('the trial ends at its end instant', () => {
    expect(trialEnded({ isTrial: true, trialEndsAt: now }, now)).toBe(true);
    expect(trialEnded({ isTrial: true, trialEndsAt: new Date(now.getTime() + 1) }, now)).toBe(false);
  });
});
