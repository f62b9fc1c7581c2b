import 'server-only';
import { and, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { stripeRequests, subscriptions } from '@/lib/db/schema';
import { describeError, log } from '@/lib/log';
import { processSlot } from '@/lib/process-slot';
import { isPaying } from './state';
import { billingConfigured, stripe } from './stripe';
import { applySubscription, syncAccount, viewOf } from './sync';

// A Stripe call unfinished for this long lost its answer (a crash or a time-out between Stripe's
// answer and our write); a webhook usually repairs it first.
const UNFINISHED_AFTER_MS = 2 * 60_000;
const RECONCILE_MS = 10 * 60_000;

/**
 * Accounts whose state may lag behind Stripe: a call whose answer was lost, a reduction whose
 * billing date has come, or a renewal date passed without a word from Stripe.
 */
async function accountsToReconcile(now: Date): Promise<string[]> {
  const db = await getDb();
  const lost = await db
    .selectDistinct({ userId: stripeRequests.userId })
    .from(stripeRequests)
    .where(
      and(isNull(stripeRequests.completedAt), isNotNull(stripeRequests.userId), lt(stripeRequests.createdAt, new Date(now.getTime() - UNFINISHED_AFTER_MS))),
    );
  const due = await db
    .select({ userId: subscriptions.userId })
    .from(subscriptions)
    .where(
      and(
        lt(subscriptions.currentPeriodEnd, now),
        or(isNotNull(subscriptions.roomsUntilPeriodEnd), inArray(subscriptions.status, ['active', 'trialing', 'past_due'])),
      ),
    );
  return [...new Set([...lost.map((row) => row.userId!), ...due.map((row) => row.userId)])];
}

/** Brings one account in line with Stripe; adopts a subscription whose creation answer was lost. */
export async function reconcileAccount(userId: string): Promise<void> {
  const db = await getDb();
  const [stored] = await db.select().from(subscriptions).where(eq(subscriptions.userId, userId)).limit(1);
  if (stored && (!stored.stripeSubscriptionId || !isPaying(stored.status))) {
    const { data } = await stripe().subscriptions.list({
      customer: stored.stripeCustomerId,
      status: 'all',
      limit: 5,
      expand: ['data.default_payment_method', 'data.latest_invoice'],
    });
    const newest = data.sort((a, b) => b.created - a.created)[0];
    if (newest) await applySubscription(viewOf(newest));
  } else {
    await syncAccount(userId);
  }
  // Whatever was unfinished is now read back from Stripe: its key is no longer needed.
  await db
    .update(stripeRequests)
    .set({ completedAt: sql`now()` })
    .where(
      and(eq(stripeRequests.userId, userId), isNull(stripeRequests.completedAt), lt(stripeRequests.createdAt, new Date(Date.now() - UNFINISHED_AFTER_MS))),
    );
}

/** One pass of the reconcile job; answers how many accounts it looked at. */
export async function reconcileBilling(now = new Date()): Promise<number> {
  if (!billingConfigured()) return 0;
  const accounts = await accountsToReconcile(now);
  for (const userId of accounts) {
    try {
      await reconcileAccount(userId);
    } catch (error) {
      log.error('billing reconcile failed for an account', { userId, ...describeError(error) });
    }
  }
  return accounts.length;
}

const reconcileTimer = processSlot<NodeJS.Timeout>('billing.reconcileTimer');

/** Starts the reconcile job (instrumentation.ts, scripts/worker.ts). Returns the stop function. */
export function startBillingReconcile(): () => void {
  if (!reconcileTimer.get() && billingConfigured()) {
    const timer = setInterval(() => void reconcileBilling().catch(() => undefined), RECONCILE_MS);
    timer.unref();
    reconcileTimer.set(timer);
  }
  return () => clearInterval(reconcileTimer.set(undefined));
}
