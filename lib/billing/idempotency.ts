import 'server-only';
import { createHash, randomUUID } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { processSlot } from '@/lib/process-slot';
import { stripeRequests } from '@/lib/db/schema';

// Stripe keeps an idempotency key's answer for 24 hours; reuse a key only well inside that.
const KEY_LIFETIME_MS = 23 * 60 * 60 * 1000;

/**
 * Runs one mutating Stripe call under an idempotency key that is written down before the first
 * attempt. If an earlier attempt with the same parameters never finished (a crash, a lost answer,
 * a double click), its key is reused, so Stripe answers with what it already did instead of doing
 * it twice.
 */
export async function withIdempotencyKey<T extends { id: string }>(
  userId: string | null,
  operation: string,
  params: unknown,
  call: (idempotencyKey: string) => Promise<T>,
): Promise<T> {
  const db = await getDb();
  const fingerprint = createHash('sha256').update(JSON.stringify(params)).digest('hex');
  const owner = userId ? eq(stripeRequests.userId, userId) : isNull(stripeRequests.userId);
  const [unfinished] = await db
    .select({ key: stripeRequests.idempotencyKey })
    .from(stripeRequests)
    .where(
      and(
        owner,
        eq(stripeRequests.operation, operation),
        eq(stripeRequests.fingerprint, fingerprint),
        isNull(stripeRequests.completedAt),
        gt(stripeRequests.createdAt, new Date(Date.now() - KEY_LIFETIME_MS)),
      ),
    )
    .limit(1);
  const idempotencyKey = unfinished?.key ?? `enclave-${operation}-${randomUUID()}`;
  if (!unfinished) await db.insert(stripeRequests).values({ idempotencyKey, userId, operation, fingerprint });
  const result = await call(idempotencyKey);
  await db.update(stripeRequests).set({ completedAt: new Date(), resultId: result.id }).where(eq(stripeRequests.idempotencyKey, idempotencyKey));
  return result;
}

/** Per process (lib/process-slot.ts), not per copy of this module: every billing route's operations queue together. */
const queues = processSlot<Map<string, Promise<unknown>>>('billing.one-at-a-time').getOrCreate(() => new Map());

/**
 * One billing operation per account at a time in this process, so that two tabs cannot both
 * start a subscription (across instances the idempotency keys above catch the same case).
 */
export function oneAtATime<T>(userId: string, run: () => Promise<T>): Promise<T> {
  const previous = queues.get(userId) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(run);
  queues.set(userId, next);
  void next
    .finally(() => {
      if (queues.get(userId) === next) queues.delete(userId);
    })
    .catch(() => undefined);
  return next;
}
