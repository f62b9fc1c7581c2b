// The key exchange's way up to the server: messages to one peer keep their order and go up in
// as few POSTs as the server's limits allow (issue 17).
import { MAX_SIGNAL_BATCH, MAX_SIGNAL_BODY_BYTES } from '@/lib/meeting/protocol';

/** How long an announcement after a handoff waits for the description that normally follows it. */
export const LAZY_FLUSH_MS = 150;
/**
 * A POST the server did not take (no answer, 429 over the flood limit, 5xx) goes again after these
 * waits, before anything queued behind it: a lost announcement or sender key would leave the two
 * of us unverified, or deaf to each other, for good. A copy that did arrive is dropped as a replay.
 */
export const RETRY_WAITS_MS = [250, 500, 1000, 2000, 4000];

/** The server's answer says nothing arrived, and asking again may work. */
const retryable = (status: unknown) => typeof status === 'number' && (status === 0 || status === 429 || status >= 500);

interface Outbox {
  items: string[];
  /** Something waiting must go up now: a message that is not lazy, or a lazy one's wait is over. */
  due: boolean;
  sending: boolean;
  /** Flushes lazy messages that nothing followed. */
  timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * Messages to one peer keep their order: an announcement before the offer, the offer before its
 * candidates. They are made (signed) one after another, and go up in one POST at a time; what
 * queued meanwhile goes in the next POST together, so a burst of candidates costs one round
 * trip, not one each.
 */
export class SignalOutbox {
  private readonly making = new Map<string, Promise<unknown>>();
  private readonly outboxes = new Map<string, Outbox>();

  constructor(
    /** Sends messages for one peer up, in this order (one POST); the answer's HTTP status, 0 for none. */
    private readonly post: (to: string, envelopes: string[]) => Promise<unknown>,
    private readonly lazyFlushMs = LAZY_FLUSH_MS,
    private readonly retryWaitsMs = RETRY_WAITS_MS,
  ) {}

  /** Queues what `make` makes for this peer; a lazy message waits for the next one (or `lazyFlushMs`). */
  enqueue(to: string, make: () => Promise<string | string[]>, lazy = false) {
    const previous = this.making.get(to) ?? Promise.resolve();
    const next = previous.then(async () => this.push(to, await make(), lazy)).catch(() => undefined);
    this.making.set(to, next);
  }

  /** A peer left: what waits for it is dropped. */
  forget(to: string) {
    this.making.delete(to);
    clearTimeout(this.outboxes.get(to)?.timer);
    this.outboxes.delete(to);
  }

  /**
   * A lazy message waits for the next one to this peer, or `lazyFlushMs` at most — also when it
   * comes while an earlier POST is on its way.
   */
  private push(to: string, texts: string | string[], lazy: boolean) {
    const box = this.outboxes.get(to) ?? { items: [], due: false, sending: false, timer: undefined };
    this.outboxes.set(to, box);
    box.items.push(...(typeof texts === 'string' ? [texts] : texts));
    if (lazy) {
      box.timer ??= setTimeout(() => {
        box.timer = undefined;
        box.due = true;
        if (!box.sending) void this.flush(to, box);
      }, this.lazyFlushMs);
      return;
    }
    clearTimeout(box.timer);
    box.timer = undefined;
    box.due = true;
    if (!box.sending) void this.flush(to, box);
  }

  private async flush(to: string, box: Outbox) {
    box.sending = true;
    while (box.due && box.items.length) {
      const batch = takeBatch(box.items);
      if (!box.items.length) box.due = false;
      for (let attempt = 0; ; attempt += 1) {
        const status = await this.post(to, batch).catch(() => 0);
        const wait = this.retryWaitsMs[attempt];
        // Gone meanwhile (forget): nothing more for it.
        if (!retryable(status) || wait === undefined || this.outboxes.get(to) !== box) break;
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
    box.sending = false;
  }
}

/** The longest run of waiting messages that fits one POST. */
export function takeBatch(items: string[]): string[] {
  let bytes = 0;
  let count = 0;
  while (count < items.length && count < MAX_SIGNAL_BATCH) {
    bytes += items[count]!.length + 8;
    if (count > 0 && bytes > MAX_SIGNAL_BODY_BYTES - 1024) break;
    count += 1;
  }
  return items.splice(0, count);
}
