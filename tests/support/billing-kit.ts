// What the billing tests share (billing.test.ts, billing-changes.test.ts): reading a user's rows
// and subscribing through the app's own calls against the Stripe stand-in.
import { count, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { billingRecords, users, type User } from '@/lib/db/schema';
import { POST as postPayment } from '@/app/billing/payment/route';
import { POST as paymentSecret } from '@/app/billing/payment/secret/route';
import { call, createUser, sessionCookies } from './api';
import type { StandIn } from './billing';

export const as = (cookie: string) => ({ cookies: sessionCookies(cookie) });

export async function userRow(id: string): Promise<User> {
  const db = await getDb();
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row!;
}

export async function records(userId: string) {
  const db = await getDb();
  const [row] = await db.select({ n: count() }).from(billingRecords).where(eq(billingRecords.userId, userId));
  return row!.n;
}

/** A user who has subscribed to `rooms` rooms and paid with `card`, through the app's own calls. */
export async function subscribed(standIn: StandIn, rooms: number, card = '4242424242424242') {
  const { user, cookie } = await createUser();
  const start = await call(paymentSecret, { body: { rooms }, ...as(cookie) });
  expect(start.status).toBe(200);
  standIn.controls.pay({
    clientSecret: start.json.clientSecret as string,
    card,
    name: 'Grace Hopper',
  });
  const done = await call(postPayment, {
    body: { paymentIntent: start.json.paymentIntent },
    ...as(cookie),
  });
  expect(done.json).toMatchObject({ status: 'ok', state: 'complete' });
  return { user, cookie, subscription: start.json.subscription as string };
}
