import 'server-only';
import { processSlot } from '@/lib/process-slot';

/**
 * A token bucket per participant for signaling messages: a burst of ICE candidates when a
 * newcomer meets 29 others fits, a flood does not — and one flooding client slows nobody else.
 */
const CAPACITY = 400;
const REFILL_PER_SECOND = 100;
// One per process (lib/process-slot.ts): every route's copy of the relay draws on the same bucket.
const buckets = processSlot<Map<string, { tokens: number; at: number }>>('signal-flood-buckets').getOrCreate(() => new Map());

export function takeToken(participantId: string, now = Date.now()): boolean {
  const bucket = buckets.get(participantId) ?? { tokens: CAPACITY, at: now };
  bucket.tokens = Math.min(CAPACITY, bucket.tokens + ((now - bucket.at) / 1000) * REFILL_PER_SECOND);
  bucket.at = now;
  buckets.set(participantId, bucket);
  if (bucket.tokens < 1) return false;
  bucket.tokens -= 1;
  // Full buckets carry no information: forget them so the map stays small.
  if (buckets.size > 10_000) for (const [id, b] of buckets) if (b.tokens >= CAPACITY - 1) buckets.delete(id);
  return true;
}
