// Pages that send the call's messages through a stand-in for Janus's data relay
// (tests/unit/sender-data.test.ts, sfu-data.test.ts, meeting-messenger.test.ts): real sender-key
// rings and real WebCrypto (sender-key-room.ts); the relay behaves as Janus does, forwarding a
// publisher's bytes only to the subscribers whose own channel on their subscription to it is open,
// and only while they still subscribe when the bytes arrive.
import type { Bytes } from '@/lib/meeting/e2ee/bytes';
import { deriveDirectKey } from '@/lib/meeting/e2ee/sender-data';
import { SfuData, type SfuDataContext } from '@/lib/meeting/client/sfu/sfu-data';
import { room } from './sender-key-room';
import { until } from './until';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class FakeRelay {
  /** Subscriber → the publishers whose data it receives. */
  private readonly subscriptions = new Map<string, Set<string>>();
  private readonly inFlight: { from: string; bytes: Bytes }[] = [];
  readonly receivers = new Map<string, (bytes: Bytes) => void>();
  /** Pages whose publisher's channel is open. */
  readonly publishing = new Set<string>();
  /** Everything sent, as Janus sees it. */
  readonly log: { from: string; bytes: Bytes }[] = [];
  /** The pages on this relay (sfuRoom sets them): settle waits for their sealing and opening. */
  pages: SfuData[] = [];

  send(from: string, bytes: Bytes): boolean {
    if (!this.publishing.has(from)) return false;
    this.inFlight.push({ from, bytes });
    this.log.push({ from, bytes });
    return true;
  }

  subscribe(subscriber: string, publisher: string) {
    const set = this.subscriptions.get(subscriber) ?? new Set();
    set.add(publisher);
    this.subscriptions.set(subscriber, set);
  }

  unsubscribe(subscriber: string, publisher: string) {
    this.subscriptions.get(subscriber)?.delete(publisher);
  }

  subscribes(subscriber: string, publisher: string): boolean {
    return this.subscriptions.get(subscriber)?.has(publisher) ?? false;
  }

  /** What is on its way reaches those subscribed to its publisher now; to the others it is lost. */
  flush() {
    for (const { from, bytes } of this.inFlight.splice(0))
      for (const [subscriber, publishers] of this.subscriptions) if (publishers.has(from)) this.receivers.get(subscriber)?.(bytes.slice());
  }

  /** Waits until `from` has handed the relay something after entry `since` of the log, forwarding nothing meanwhile: it stays on its way. */
  async sentBy(from: string, since: number) {
    await until(() => this.log.slice(since).some((entry) => entry.from === from), `${from}'s message at the relay`);
  }

  /** Lets the relay forward until `condition` holds: sealing and opening are WebCrypto's, and a busy machine takes its time. */
  async until(condition: () => boolean, what: string) {
    await until(() => {
      this.flush();
      return condition();
    }, what);
  }

  /** Whether nothing of the pages is waiting to be sealed, on its way, or being opened. */
  quiet(): boolean {
    return this.inFlight.length === 0 && this.pages.every(({ counts }) => counts.queued === 0 && counts.opening === 0);
  }

  /**
   * Forwards `rounds` times a few milliseconds apart, then until the pages are quiet: sealing and
   * opening are WebCrypto's, and a busy machine takes its time. A greeting's next try, a timer, is
   * not waited for.
   */
  async settle(rounds = 15) {
    for (let round = 0; round < rounds; round += 1) {
      await sleep(3);
      this.flush();
    }
    await this.until(() => this.quiet(), 'the pages quiet');
  }
}

/** A call of `ids` with their sender keys handed round, each page with an SfuData on one relay (not yet publishing or subscribed). */
export async function sfuRoom(ids: string[], options: Partial<SfuDataContext> | ((id: string) => Partial<SfuDataContext>) = {}) {
  const keys = await room(ids, { debounceMs: 40, maxDelayMs: 150, intervalMs: 600_000, graceMs: 600_000 });
  await Promise.all(ids.map((id) => keys.rings[id]!.start()));
  await keys.settle();
  const relay = new FakeRelay();
  const delivered: Record<string, { from: string; message: unknown }[]> = {};
  /** Messages over the links: the bye, and what the SFU could not take. */
  const linked: { from: string; to: string; message: { t: string } }[] = [];
  const data: Record<string, SfuData> = {};
  for (const id of ids) {
    delivered[id] = [];
    data[id] = new SfuData({
      selfId: id,
      roomId: 'r',
      ring: () => keys.rings[id]!,
      directKeys: async (peerId) => {
        const pair = keys.pairSecret(id, peerId);
        return pair ? { send: await deriveDirectKey(pair, id, peerId), receive: await deriveDirectKey(pair, peerId, id) } : null;
      },
      deliver: (from, message) => void delivered[id]!.push({ from, message }),
      sendLink: (to, message) => {
        linked.push({ from: id, to, message });
        if (message.t === 'sfu-bye') data[to]!.byeFrom(id, (message as { upTo?: number }).upTo);
        return true;
      },
      greetEveryMs: 20,
      keyWaitMs: 0,
      ...(typeof options === 'function' ? options(id) : options),
    });
    relay.receivers.set(id, (bytes) => data[id]!.receive(bytes));
  }
  relay.pages = Object.values(data);
  /** `id` publishes (its channel open) and sends on it. */
  const publish = (id: string) => {
    relay.publishing.add(id);
    data[id]!.attach({ send: (bytes) => relay.send(id, bytes) });
  };
  /** `subscriber` subscribes to `publisher`, its own channel opens (Janus's dataready), and it greets. */
  const subscribe = (subscriber: string, publisher: string) => {
    relay.subscribe(subscriber, publisher);
    data[subscriber]!.opened([publisher]);
  };
  const stop = () => {
    for (const id of ids) {
      keys.rings[id]!.stop();
      data[id]!.attach(null);
    }
  };
  return { ...keys, relay, data, delivered, linked, publish, subscribe, stop };
}
