import { SignalOutbox, takeBatch } from '@/lib/meeting/client/keys/signal-outbox';
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

// A POST the server did not take goes again, before what queued behind it; one it refused for
// good (403: the token revoked) or took does not.
describe('SignalOutbox: a POST the server did not take', () => {
  const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

  async function sent(answers: unknown[]) {
    const posts: string[][] = [];
    const outbox = new SignalOutbox(
      async (_to, envelopes) => {
        posts.push(envelopes);
        return answers.shift() ?? 200;
      },
      0,
      [1, 1, 1],
    );
    outbox.enqueue('bob', async () => 'announce');
    await settle();
    outbox.enqueue('bob', async () => 'sender key');
    await settle();
    return posts;
  }

  it.each([
    ['no answer (network)', 0],
    ['over the flood limit', 429],
    ['a server error', 503],
  ])('goes again after %s, in order, before the next', async (_name, status) => {
    expect(await sent([status, status])).toEqual([['announce'], ['announce'], ['announce'], ['sender key']]);
  });

  it('gives up after its last wait', async () => {
    expect(await sent([0, 0, 0, 0])).toEqual([['announce'], ['announce'], ['announce'], ['announce'], ['sender key']]);
  });

  it.each([200, 403, 404])('is not sent again after %s', async (status) => {
    expect(await sent([status])).toEqual([['announce'], ['sender key']]);
  });
});
