import 'server-only';
import { eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { configuration, subscriptions, type Subscription, type User } from '@/lib/db/schema';
import { withIdempotencyKey } from './idempotency';
import { callStripe, stripe } from './stripe';

/** The account's billing row, if it has ever started paying. */
export async function storedSubscription(userId: string): Promise<Subscription | null> {
  const db = await getDb();
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.userId, userId)).limit(1);
  return row ?? null;
}

/** The account's Stripe customer, created once (the key makes a retry return the same customer). */
export async function ensureCustomer(user: User, currency: 'eur' | 'usd'): Promise<Subscription> {
  const existing = await storedSubscription(user.id);
  if (existing) return existing;
  const customer = await callStripe('create customer', () =>
    withIdempotencyKey(user.id, 'customer', { userId: user.id }, (idempotencyKey) =>
      stripe().customers.create(
        { email: user.email, name: `${user.firstName} ${user.lastName}`, preferred_locales: [user.lang], metadata: { userId: user.id } },
        { idempotencyKey },
      ),
    ),
  );
  const db = await getDb();
  await db.insert(subscriptions).values({ userId: user.id, stripeCustomerId: customer.id, currency }).onConflictDoNothing();
  return (await storedSubscription(user.id))!;
}

/** The one Stripe product that room subscriptions price, created on first use and remembered. */
export async function roomProductId(): Promise<string> {
  const db = await getDb();
  const [row] = await db.select({ id: configuration.stripeProductId }).from(configuration).limit(1);
  if (row?.id) return row.id;
  const product = await callStripe('create product', () =>
    withIdempotencyKey(null, 'product', { name: 'room' }, (idempotencyKey) =>
      stripe().products.create({ name: 'Enclave room', metadata: { enclave: 'room' } }, { idempotencyKey }),
    ),
  );
  await db.update(configuration).set({ stripeProductId: product.id });
  return product.id;
}
