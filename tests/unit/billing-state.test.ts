import { accountAfter, roomAllowance, subscriptionAfter, type AccountFields, type SubscriptionView } from '@/lib/billing/state';
import { needsBillingModal, trialDaysLeft, trialEnded } from '@/lib/billing/trial';

// Issue 15: the rules that turn Stripe's description of a subscription into our account.
const now = new Date('2026-11-25T12:00:00Z');
const later = new Date('2026-12-25T12:00:00Z');
const trialAccount: AccountFields = { isTrial: true, state: 'active', numberOfRooms: 1, accountType: 'individual', sessionVersion: 1 };
const payingAccount: AccountFields = { ...trialAccount, isTrial: false };
const view = (status: string, quantity = 1): SubscriptionView => ({
  id: 'sub_1',
  customerId: 'cus_1',
  status,
  quantity,
  unitAmountCents: 3495,
  currency: 'eur',
  periodEnd: later,
  cardName: 'Ada',
  cardLast4: '4242',
  latestInvoice: { id: 'in_1', status: 'paid', amountPaidCents: 3495 * quantity },
});
const noReduction = { roomsUntilPeriodEnd: null, currentPeriodEnd: later };

describe('accountAfter', () => {
  it.each([
    ['active, 1 room → individual', trialAccount, view('active', 1), { isTrial: false, numberOfRooms: 1, accountType: 'individual', state: 'active' }],
    ['active, 2 rooms → executive', trialAccount, view('active', 2), { isTrial: false, numberOfRooms: 2, accountType: 'executive' }],
    ['past_due keeps the rooms while Stripe retries', payingAccount, view('past_due', 3), { state: 'active', numberOfRooms: 3 }],
    ['incomplete changes nothing', trialAccount, view('incomplete', 5), trialAccount],
    ['incomplete_expired changes nothing', trialAccount, view('incomplete_expired', 5), trialAccount],
    ['unpaid expires a paying account and ends its sessions', payingAccount, view('unpaid'), { state: 'expired', sessionVersion: 2 }],
    ['canceled expires a paying account', payingAccount, view('canceled'), { state: 'expired' }],
    ['canceled leaves a trial account on trial', trialAccount, view('canceled'), trialAccount],
    ['a payment brings back an expired account', { ...payingAccount, state: 'expired' as const }, view('active', 2), { state: 'active', numberOfRooms: 2 }],
    ["an operator's disabled stays disabled", { ...payingAccount, state: 'disabled' as const }, view('active', 2), { state: 'disabled', numberOfRooms: 2 }],
    ['an enterprise plan keeps its name', { ...payingAccount, accountType: 'enterprise' as const }, view('active', 1), { accountType: 'enterprise' }],
  ])('%s', (_name, account, subscription, expected) => {
    expect(accountAfter(account, subscription, noReduction, now)).toMatchObject(expected);
  });

  it('is idempotent: applying the same view twice changes nothing more', () => {
    const once = accountAfter(payingAccount, view('unpaid'), noReduction, now);
    expect(accountAfter(once, view('unpaid'), noReduction, now)).toEqual(once);
  });
});

describe('roomAllowance: a reduction applies from the next billing date', () => {
  it.each([
    ['no reduction', 3, { roomsUntilPeriodEnd: null, currentPeriodEnd: later }, now, { rooms: 3, keepUntilPeriodEnd: null }],
    ['before the period ends, the paid rooms stay', 1, { roomsUntilPeriodEnd: 3, currentPeriodEnd: later }, now, { rooms: 3, keepUntilPeriodEnd: 3 }],
    ['from the period end on, the new count', 1, { roomsUntilPeriodEnd: 3, currentPeriodEnd: later }, later, { rooms: 1, keepUntilPeriodEnd: null }],
    ['an upgrade above the kept count wins', 4, { roomsUntilPeriodEnd: 3, currentPeriodEnd: later }, now, { rooms: 4, keepUntilPeriodEnd: null }],
  ])('%s', (_name, quantity, stored, at, expected) => {
    expect(roomAllowance(quantity, stored, at)).toEqual(expected);
  });

  it('while a reduction waits, the stored period end is kept as the date it applies from', () => {
    const stored = { roomsUntilPeriodEnd: 3, currentPeriodEnd: later };
    expect(subscriptionAfter({ ...view('active', 1), periodEnd: new Date('2027-01-25T12:00:00Z') }, stored, now)).toMatchObject({
      rooms: 1,
      roomsUntilPeriodEnd: 3,
      currentPeriodEnd: later,
    });
  });

  it('records the last charge only for a paid invoice', () => {
    expect(subscriptionAfter(view('active', 2), noReduction, now)).toMatchObject({ lastTransactionId: 'in_1', lastChargeCents: 6990 });
    const open = { ...view('incomplete', 2), latestInvoice: { id: 'in_2', status: 'open', amountPaidCents: 0 } };
    expect(subscriptionAfter(open, noReduction, now)).not.toHaveProperty('lastTransactionId');
  });
});

describe('trial', () => {
  const user = { role: 'admin' as const, isTrial: true, trialEndsAt: new Date('2026-11-27T11:00:00Z') };
  it('counts whole days left, and 0 once over', () => {
    expect(trialDaysLeft(user, now)).toBe(2);
    expect(trialDaysLeft(user, later)).toBe(0);
  });
  it('ends at its end, only on trial', () => {
    expect(trialEnded(user, now)).toBe(false);
    expect(trialEnded(user, later)).toBe(true);
    expect(trialEnded({ ...user, isTrial: false }, later)).toBe(false);
  });
  it('opens the billing modal only for an admin out of trial, never without billing', () => {
    expect(needsBillingModal(user, true, later)).toBe(true);
    expect(needsBillingModal({ ...user, role: 'user' }, true, later)).toBe(false);
    expect(needsBillingModal(user, false, later)).toBe(false);
    expect(needsBillingModal(user, true, now)).toBe(false);
  });
});
