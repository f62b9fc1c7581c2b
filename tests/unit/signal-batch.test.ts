import { takeBatch } from '@/lib/meeting/client/keys/signal-outbox';
import { MAX_SIGNAL_BATCH, MAX_SIGNAL_BODY_BYTES, MAX_SIGNAL_BYTES } from '@/lib/meeting/protocol';

// Issue 17: messages for one peer that queued behind a POST go up together, in order, within the
// server's limits.
describe('takeBatch', () => {
  it('takes every waiting message, in order, and leaves the queue empty', () => {
    const queue = ['offer', 'c1', 'c2'];
    expect(takeBatch(queue)).toEqual(['offer', 'c1', 'c2']);
    expect(queue).toEqual([]);
  });

  it(`takes at most ${MAX_SIGNAL_BATCH} messages`, () => {
    const queue = Array.from({ length: MAX_SIGNAL_BATCH + 3 }, (_, i) => `m${i}`);
    expect(takeBatch(queue)).toHaveLength(MAX_SIGNAL_BATCH);
    expect(queue).toEqual(['m16', 'm17', 'm18']);
  });

  it('keeps a batch under the body limit, and always takes the first message', () => {
    const queue = Array.from({ length: 6 }, () => 'x'.repeat(MAX_SIGNAL_BYTES));
    const batch = takeBatch(queue);
    expect(batch.length).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify({ type: 'signals', to: 'p', envelopes: batch }).length).toBeLessThan(MAX_SIGNAL_BODY_BYTES);
    expect(batch.length + queue.length).toBe(6);
  });
});
