// The call's messages through the SFU (issue 46; docs/meetings.md "Messages through the SFU"):
// a message to everyone sealed once under our sender key and signed (e2ee/sender-data.ts), or to
// one peer under our pair's direct key, sent on our publisher's data channel; Janus relays it to
// each subscriber whose own channel on its subscription is open. Janus does not say who
// subscribed to whom, so each page greets every publisher it hears (`sfu-hi`) and answers the
// first greeting of each: a peer that greeted us hears us, and only then does the messenger
// (call/messenger.ts) send it anything this way. A page about to stop hearing a publisher says
// `sfu-bye` first and keeps the subscription DRAIN_MS, so nothing sent before the bye is lost.
import type { Bytes } from '@/lib/meeting/e2ee/bytes';
import type { SenderKey } from '@/lib/meeting/e2ee/sender-chain';
import {
  openToEveryone,
  openToOne,
  parseSenderData,
  ReplayWindow,
  sealToEveryone,
  sealToOne,
  type DropReason,
  type SenderDataEnvelope,
} from '@/lib/meeting/e2ee/sender-data';

/** Greeting and farewell between two pages through the SFU: never handed to the call. */
export const GREETING = 'sfu-hi';
export const BYE = 'sfu-bye';
/** A greeting goes out this many times at most, this far apart, until answered: the peer may subscribe to us later than we to it. */
export const GREET_TRIES = 8;
export const GREET_EVERY_MS = 1500;
/** How long a page keeps a subscription after its bye (or the SFU after moving to the mesh): messages sent just before still arrive. */
export const DRAIN_MS = 1500;
/** A message longer than this goes over the links (the links take 96 KiB; Janus's relay is not asked for more). */
export const MAX_SFU_TEXT = 64 * 1024;
/** How long a message under a key not held yet waits for its box (a fresh key's box may come after its first message). */
const KEY_WAIT_MS = 2000;
const KEY_POLL_MS = 250;

/** Our publisher's data channel: false when it is not open. */
export interface SfuDataTransport {
  send(bytes: Bytes): boolean;
}

export interface SfuDataContext {
  selfId: string;
  /** The room id bound into every message to everyone. */
  roomId: string;
  /** Our sender keys (sender-key-ring.ts): what we seal with and open the others' messages with; null before the first. */
  ring(): { sealing(): Promise<{ key: SenderKey; signer: CryptoKey } | null>; opening(from: string, generation: number): Promise<SenderKey | null> } | null;
  /** The direct keys with one verified peer (keys/meeting-crypto.ts directKeys); null while it is not verified. */
  directKeys(peerId: string): Promise<{ send: CryptoKey; receive: CryptoKey } | null>;
  /** A message opened and proven to be `from`'s. */
  deliver(from: string, message: unknown): void;
  /** Over the pair's link (our bye, and what the SFU could not take after all); false when the link is not open. */
  sendLink(peerId: string, message: { t: string }): boolean;
  /** A peer and we now hear each other through the SFU (a greeting or its answer came). */
  heard?(peerId: string): void;
  greetEveryMs?: number;
  /** How long a message under a key not held yet waits for its box (tests shorten it). */
  keyWaitMs?: number;
}

const tagged = (raw: unknown): raw is { t: string; reply?: unknown; upTo?: unknown } =>
  typeof raw === 'object' && raw !== null && typeof (raw as { t?: unknown }).t === 'string';

export class SfuData {
  private transport: SfuDataTransport | null = null;
  /** Peers that greeted us through the SFU: they receive what we send there. */
  private readonly hears = new Set<string>();
  /** Peers we greet until they answer. */
  private readonly greeting = new Map<string, { tries: number; timer: ReturnType<typeof setTimeout> | null }>();
  /** Peers we said goodbye to: none of our greetings is sealed for them until we hear them again. */
  private readonly leaving = new Set<string>();
  /**
   * Peers that said goodbye, with the number their next direct message to us had then: a greeting
   * numbered below it was sealed before the bye and, come late through Janus, is stale.
   */
  private readonly farewells = new Map<string, number>();
  private seq = 0;
  private readonly direct = new Map<string, { keys: Promise<{ send: CryptoKey; receive: CryptoKey } | null>; seq: number }>();
  private readonly windows = new Map<string, ReplayWindow>();
  /** Our messages, sealed and sent in the order they were given. */
  private sending: Promise<void> = Promise.resolve();
  /** Each sender's messages opened in the order they came. */
  private readonly receiving = new Map<string, Promise<void>>();
  /** `queued`: ours still waiting to be sealed and sent; `opening`: come, and neither opened nor dropped yet. */
  readonly counts = { queued: 0, sent: 0, opening: 0, opened: 0, dropped: 0 };
  readonly drops: Record<DropReason, number> = { malformed: 0, forged: 0, auth: 0, replay: 0, 'unknown-key': 0 };

  constructor(private readonly ctx: SfuDataContext) {}

  /** Our publisher's channel to send on, or none (back on the mesh, Janus lost): then nobody hears us there. */
  attach(transport: SfuDataTransport | null) {
    this.transport = transport;
    // Whoever heard a connection before this one greets this one anew.
    this.hears.clear();
    for (const peerId of [...this.greeting.keys()]) this.stopGreeting(peerId);
  }

  /** Who hears us through the SFU now. */
  hearing(): string[] {
    return [...this.hears];
  }

  /** Our channel on the subscription to these publishers is open: we hear them, so we greet them. */
  opened(peerIds: string[]) {
    for (const peerId of peerIds) {
      if (peerId === this.ctx.selfId) continue;
      this.stopGreeting(peerId);
      this.leaving.delete(peerId);
      this.greeting.set(peerId, { tries: 0, timer: null });
      this.greet(peerId);
    }
  }

  /** This publisher left Janus's room: it hears nothing there. */
  lost(peerId: string) {
    this.hears.delete(peerId);
    this.stopGreeting(peerId);
  }

  /**
   * We are about to stop hearing these publishers (back on the mesh, another breakout room): each
   * is told, over its link (through the SFU if the link is down), before our subscription goes, so
   * it sends us nothing more there. The bye goes faster than a greeting or answer of ours still on
   * its way through Janus: it says how many direct messages we sealed for the peer, so that the
   * peer takes none of those for a sign that we hear it again.
   */
  bye(peerIds: string[]) {
    for (const peerId of peerIds) {
      this.stopGreeting(peerId);
      this.leaving.add(peerId);
      const bye = { t: BYE, upTo: this.direct.get(peerId)?.seq ?? 0 };
      if (!this.ctx.sendLink(peerId, bye)) this.send(peerId, bye);
    }
  }

  /** A peer's bye, over its link or through the SFU: from now on it gets our messages over the link. */
  byeFrom(peerId: string, upTo?: unknown) {
    this.hears.delete(peerId);
    if (typeof upTo === 'number' && Number.isSafeInteger(upTo) && upTo >= 0) this.farewells.set(peerId, upTo);
  }

  /**
   * One message for everyone who can open our frames, sealed once; false when the SFU cannot take
   * it now (then it goes over the links). One that fails after all goes over the links to `to`.
   */
  broadcast(message: { t: string }, to: readonly string[]): boolean {
    const text = JSON.stringify(message);
    if (!this.transport || text.length > MAX_SFU_TEXT || !this.ctx.ring()) return false;
    this.queue(
      async () => {
        const sealing = await this.ctx.ring()?.sealing();
        return sealing ? sealToEveryone(this.ctx.roomId, { senderId: this.ctx.selfId, ...sealing }, this.seq++, text) : null;
      },
      () => to.forEach((peerId) => this.ctx.sendLink(peerId, message)),
    );
    return true;
  }

  /** One message for one peer, under our direct key; false when the SFU cannot take it now. */
  send(peerId: string, message: { t: string }): boolean {
    const text = JSON.stringify(message);
    if (!this.transport || text.length > MAX_SFU_TEXT) return false;
    this.queue(
      async () => {
        const pair = this.pair(peerId);
        const keys = await pair.keys;
        // Said goodbye meanwhile: a greeting now would tell the peer we still hear it.
        if (message.t === GREETING && this.leaving.has(peerId)) return null;
        return keys ? sealToOne(keys.send, this.ctx.selfId, peerId, pair.seq++, text) : null;
      },
      () => message.t !== GREETING && this.ctx.sendLink(peerId, message),
    );
    return true;
  }

  /** Bytes our subscription's channel brought: opened, checked and handed on, or dropped and counted. */
  receive(bytes: Bytes) {
    const envelope = parseSenderData(bytes);
    if (!envelope) return this.drop('malformed');
    // Janus relays a publisher's every message to each subscriber: another's direct messages, and ours back never.
    if (envelope.sender === this.ctx.selfId || (envelope.kind === 'one' && envelope.receiver !== this.ctx.selfId)) return;
    const from = envelope.sender;
    this.counts.opening += 1;
    const next = (this.receiving.get(from) ?? Promise.resolve())
      .then(() => this.open(envelope))
      .catch(() => this.drop('malformed'))
      .finally(() => (this.counts.opening -= 1));
    this.receiving.set(from, next);
    // Nothing kept for a name that came with junk only.
    void next.then(() => this.receiving.get(from) === next && this.receiving.delete(from));
  }

  private async open(envelope: SenderDataEnvelope) {
    const from = envelope.sender;
    const windowKey = `${envelope.kind} ${from}`;
    const fresh = (seq: number) => this.windows.get(windowKey)?.fresh(seq) ?? true;
    let opened: { seq: number; text: string } | DropReason;
    if (envelope.kind === 'one') {
      const keys = await this.pair(from).keys;
      opened = keys ? await openToOne(keys.receive, envelope) : 'unknown-key';
    } else {
      if (!fresh(envelope.seq)) return this.drop('replay');
      const key = await this.keyFor(from, envelope.generation);
      opened = key ? await openToEveryone(this.ctx.roomId, envelope, key) : 'unknown-key';
    }
    if (typeof opened === 'string') return this.drop(opened);
    if (!fresh(opened.seq)) return this.drop('replay');
    // Only a message that authenticated makes (or moves) its sender's window.
    const window = this.windows.get(windowKey) ?? new ReplayWindow();
    this.windows.set(windowKey, window);
    window.record(opened.seq);
    let message: unknown;
    try {
      message = JSON.parse(opened.text);
    } catch {
      return this.drop('malformed');
    }
    this.counts.opened += 1;
    if (tagged(message) && message.t === GREETING) return this.greeted(from, message.reply === true, opened.seq);
    if (tagged(message) && message.t === BYE) return this.byeFrom(from, message.upTo);
    this.ctx.deliver(from, message);
  }

  /** A fresh key's box may still be on its way: wait a little for it, in this sender's turn. */
  private async keyFor(from: string, generation: number): Promise<SenderKey | null> {
    for (let waited = 0; ; waited += KEY_POLL_MS) {
      const key = (await this.ctx.ring()?.opening(from, generation)) ?? null;
      if (key || waited >= (this.ctx.keyWaitMs ?? KEY_WAIT_MS)) return key;
      await new Promise((resolve) => setTimeout(resolve, KEY_POLL_MS));
    }
  }

  /**
   * A peer greeted us (or answered our greeting): it hears us, and since the greeting came through
   * the SFU, we hear it. A greeting is answered, which tells it we hear it too, so neither side
   * greets on; an answer is not (no loop).
   */
  private greeted(from: string, reply: boolean, seq: number) {
    if (seq < (this.farewells.get(from) ?? 0)) return;
    this.farewells.delete(from);
    const fresh = !this.hears.has(from);
    this.hears.add(from);
    this.stopGreeting(from);
    const answer = { t: GREETING, reply: true };
    if (!reply) this.send(from, answer);
    if (fresh) this.ctx.heard?.(from);
  }

  private greet(peerId: string) {
    const greeting = this.greeting.get(peerId);
    if (!greeting || !this.transport) return;
    greeting.tries += 1;
    this.send(peerId, { t: GREETING });
    greeting.timer = greeting.tries < GREET_TRIES ? setTimeout(() => this.greet(peerId), this.ctx.greetEveryMs ?? GREET_EVERY_MS) : null;
  }

  private stopGreeting(peerId: string) {
    const greeting = this.greeting.get(peerId);
    if (greeting?.timer) clearTimeout(greeting.timer);
    this.greeting.delete(peerId);
  }

  private pair(peerId: string) {
    let pair = this.direct.get(peerId);
    if (!pair) {
      pair = { keys: this.ctx.directKeys(peerId), seq: 0 };
      // Not verified yet: asked again next time.
      void pair.keys.then((keys) => keys || this.direct.get(peerId) !== pair || this.direct.delete(peerId));
      this.direct.set(peerId, pair);
    }
    return pair;
  }

  /** Seals and sends in order; what cannot be sealed or sent now goes `otherwise`. */
  private queue(seal: () => Promise<Bytes | null>, otherwise: () => unknown) {
    this.counts.queued += 1;
    this.sending = this.sending.then(async () => {
      const bytes = await seal().catch(() => null);
      this.counts.queued -= 1;
      if (bytes && this.transport?.send(bytes)) this.counts.sent += 1;
      else otherwise();
    });
  }

  private drop(reason: DropReason) {
    this.counts.dropped += 1;
    this.drops[reason] += 1;
  }
}
