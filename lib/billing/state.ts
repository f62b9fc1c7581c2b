// What our records say once Stripe has described a subscription (issue 15). Pure, so that every
// rule — allowance, plan, expiry — is tested without a database or Stripe.
import type { Subscription, User } from '@/lib/db/schema';

/** SPEC point 9: individual 1 room, executive up to 30. */
export const MIN_ROOMS = 1;
export const MAX_ROOMS = 30;

/** The parts of a Stripe subscription that our state follows. */
export interface SubscriptionView {
  id: string;
  customerId: string;
  status: string;
  quantity: number;
  unitAmountCents: number;
  currency: 'eur' | 'usd';
  periodEnd: Date | null;
  cardName: string | null;
  cardLast4: string | null;
  latestInvoice: { id: string; status: string | null; amountPaidCents: number } | null;
}

// past_due: a renewal failed and Stripe is still retrying; the rooms stay paid for meanwhile.
const PAYING = new Set(['active', 'trialing', 'past_due']);
// Stripe gave up on a renewal (unpaid), or the subscription ended after being paid (canceled).
const LAPSED = new Set(['unpaid', 'canceled']);

export const isPaying = (status: string | null | undefined) => PAYING.has(status ?? '');

type StoredSubscription = Pick<Subscription, 'roomsUntilPeriodEnd' | 'currentPeriodEnd'>;

/**
 * The rooms the account may have: what Stripe bills, except that a reduction applies from the
 * next billing date — until the period that was paid for ends, the earlier count stays.
 */
export function roomAllowance(quantity: number, stored: StoredSubscription, now: Date): { rooms: number; keepUntilPeriodEnd: number | null } {
  const kept = stored.roomsUntilPeriodEnd;
  if (kept && kept > quantity && stored.currentPeriodEnd && now < stored.currentPeriodEnd) {
    return { rooms: kept, keepUntilPeriodEnd: kept };
  }
  return { rooms: quantity, keepUntilPeriodEnd: null };
}

export type AccountFields = Pick<User, 'isTrial' | 'state' | 'numberOfRooms' | 'accountType' | 'sessionVersion'>;

/** The account after Stripe's view of its subscription; unchanged fields stay as they are. */
export function accountAfter(user: AccountFields, view: SubscriptionView, stored: StoredSubscription, now: Date): AccountFields {
  if (PAYING.has(view.status)) {
    const { rooms } = roomAllowance(view.quantity, stored, now);
    return {
      ...user,
      isTrial: false,
      // A payment brings back an account that lapsed; an operator's "disabled" stays.
      state: user.state === 'expired' ? 'active' : user.state,
      numberOfRooms: rooms,
      // An enterprise plan is agreed with sales; Stripe's quantity does not change its name.
      accountType: user.accountType === 'enterprise' ? 'enterprise' : rooms > 1 ? 'executive' : 'individual',
    };
  }
  if (LAPSED.has(view.status) && !user.isTrial && user.state === 'active') {
    // A failed renewal: SPEC's expired account, refused at login with login_failed_expired, and
    // its open sessions end.
    return { ...user, state: 'expired', sessionVersion: user.sessionVersion + 1 };
  }
  // incomplete / incomplete_expired: the first payment has not (or never) gone through.
  return user;
}

/** What we keep of the subscription itself. */
export function subscriptionAfter(view: SubscriptionView, stored: StoredSubscription, now: Date) {
  const { keepUntilPeriodEnd } = roomAllowance(view.quantity, stored, now);
  return {
    stripeSubscriptionId: view.id,
    status: view.status,
    rooms: view.quantity,
    currency: view.currency,
    unitAmountCents: view.unitAmountCents,
    // While a reduction waits, the paid period's end is the date it applies from.
    currentPeriodEnd: keepUntilPeriodEnd ? stored.currentPeriodEnd : view.periodEnd,
    roomsUntilPeriodEnd: keepUntilPeriodEnd,
    cardName: view.cardName,
    cardLast4: view.cardLast4,
    ...(view.latestInvoice?.status === 'paid' && {
      lastTransactionId: view.latestInvoice.id,
      lastChargeCents: view.latestInvoice.amountPaidCents,
    }),
  };
}

export function sameFields<T extends object>(before: T, after: Partial<T>): boolean {
  return (Object.keys(after) as (keyof T)[]).every((key) => {
    const a = before[key];
    const b = after[key];
    return a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : a === b;
  });
}
