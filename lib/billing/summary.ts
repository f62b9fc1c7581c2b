import 'server-only';
import { count, desc, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { attendees, billingRecords, rooms as roomsTable, type User } from '@/lib/db/schema';
import { storedSubscription } from './customer';
import { isPaying, roomAllowance } from './state';
import { privateLimits } from '@/lib/rooms/private-limits';
import { participantLimit, roomLimit, shownRoomLimit } from '@/lib/rooms/limits';
import { billingOn } from '@/lib/configuration/billing-mode';
import { billingConfigured } from './stripe';
import { trialDaysLeft, trialEnded } from './trial';

/** GET /billing/payment: the billing object of SPEC point 3 — plan, payment, rooms, card, last charge. */
export async function billingOf(user: User, now = new Date()) {
  const db = await getDb();
  const stored = await storedSubscription(user.id);
  const paying = isPaying(stored?.status);
  const limits = await privateLimits();
  const granted = stored && paying ? roomAllowance(stored.rooms, stored, now).rooms : user.numberOfRooms;
  // Without billing, the admin's configured rooms count too (issue 35).
  const allowance = roomLimit({ numberOfRooms: granted }, limits);
  const history = await db
    .select({
      transactionId: billingRecords.transactionId,
      amountCents: billingRecords.amountCents,
      currency: billingRecords.currency,
      rooms: billingRecords.rooms,
      cardName: billingRecords.cardName,
      createdAt: billingRecords.createdAt,
    })
    .from(billingRecords)
    .where(eq(billingRecords.userId, user.id))
    .orderBy(desc(billingRecords.createdAt))
    .limit(12);
  return {
    configured: billingConfigured(),
    /** False on a server without billing (lib/configuration/billing-mode.ts): no trial, no plans to choose. */
    billingOn: billingOn(),
    participants: participantLimit(user, limits),
    plan: user.accountType,
    isTrial: user.isTrial,
    trialEndsAt: user.trialEndsAt.toISOString(),
    trialEnded: trialEnded(user, now),
    trialDaysLeft: trialDaysLeft(user, now),
    status: stored?.status ?? null,
    subscribed: paying,
    /** null: no room limit (ON_PREMISE=true). */
    rooms: shownRoomLimit(allowance),
    billedRooms: paying ? stored!.rooms : 0,
    // A reduction waiting for the next billing date.
    nextRooms: paying && stored!.roomsUntilPeriodEnd ? stored!.rooms : null,
    currency: stored?.currency ?? null,
    unitAmountCents: stored?.unitAmountCents ?? null,
    monthlyPaymentCents: paying ? stored!.rooms * stored!.unitAmountCents : 0,
    nextBillingDate: paying ? (stored!.currentPeriodEnd?.toISOString() ?? null) : null,
    cardName: stored?.cardName ?? null,
    cardLast4: stored?.cardLast4 ?? null,
    chargeAmountCents: stored?.lastChargeCents ?? null,
    transactionId: stored?.lastTransactionId ?? null,
    history: history.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
  };
}

/** The account part of the account modal (SPEC point 3): type, amount, rooms, attendees, dates, owner. */
export async function accountSummary(user: User, now = new Date()) {
  const db = await getDb();
  const [billing, [roomCount], [attendeeCount]] = await Promise.all([
    billingOf(user, now),
    db.select({ n: count() }).from(roomsTable).where(eq(roomsTable.ownerId, user.id)),
    db.select({ n: count() }).from(attendees).where(eq(attendees.ownerId, user.id)),
  ]);
  const roomsUsed = roomCount?.n ?? 0;
  return {
    // A server without billing has no plan (issue 48).
    type: billing.billingOn ? user.accountType : null,
    billingOn: billing.billingOn,
    // A server without billing has no trial (issue 35).
    isTrial: billing.billingOn && user.isTrial,
    trialEndsAt: billing.billingOn && user.isTrial ? user.trialEndsAt.toISOString() : null,
    trialEnded: billing.billingOn && billing.trialEnded,
    billingAmountCents: billing.monthlyPaymentCents,
    currency: billing.currency,
    roomsAvailable: billing.rooms === null ? null : Math.max(0, billing.rooms - roomsUsed),
    rooms: billing.rooms,
    attendeesSaved: attendeeCount?.n ?? 0,
    nextBillingDate: billing.nextBillingDate,
    owner: { name: `${user.firstName} ${user.lastName}`, email: user.email },
  };
}
