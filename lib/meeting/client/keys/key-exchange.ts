// Who holds the meeting's key and whom to trust (E2EE.md "Who gets S", "Signaling"): the
// announcements tagged under the room secret, the handoff to newcomers, signed signals with their
// fingerprint check, and the host's rekey after a removal. The session owns the connections and
// the screen state; this module tells it when a peer is verified, refused, or has sent a signal.
import { base64urlDecode } from '@/lib/meeting/e2ee/bytes';
import type { JsonValue, SignedSignal } from '@/lib/meeting/e2ee/signing';
import { MAX_SIGNAL_BATCH, MAX_SIGNAL_BODY_BYTES } from '@/lib/meeting/protocol';
import type { MeetingCrypto } from './meeting-crypto';
import { parseEnvelope, parseSignalBody, type Envelope, type SignalBody } from './envelope';
import type { SignalPayload } from '../links/peer';

/** What a peer's keys say about it: only "verified" peers are connected to. */
export type PeerKeyState = 'pending' | 'verified' | 'mismatch' | 'tampered';

/**
 * The encryption indicator (E2EE.md "Safety code"): starting, waiting for a participant to hand
 * over the key, on, or refused because our link's key is not this meeting's.
 */
export interface EncryptionState {
  status: 'starting' | 'waiting-key' | 'on' | 'wrong-key';
  source: MeetingCrypto['source'];
  /** Raised by every removal: the removed participant's keys open nothing sent after it. */
  epoch: number;
  /** The room password is mixed into the key (E2EE.md "Secrets"). */
  password: boolean;
}

/** What the key exchange needs from the session. */
export interface KeyExchangeContext {
  selfId: string;
  selfIsHost(): boolean;
  /** The peers the server announced, with their key state and host flag. */
  peers(): { id: string; isHost: boolean; keys: PeerKeyState }[];
  /** The room makes newcomers wait in the lobby, or the host locked the meeting. */
  gated(): boolean;
  /** Sends messages for one peer up, in this order (one POST). */
  post(to: string, envelopes: string[]): Promise<unknown>;
  setPeerKeys(id: string, keys: PeerKeyState): void;
  encryption(): EncryptionState;
  setEncryption(state: EncryptionState): void;
  /** A peer's announcement verified: connections may be made. `theyHandedOff`: they gave us S, so they offer. */
  onVerified(id: string, theyHandedOff: boolean): Promise<void>;
  /** We handed S to this newcomer (our announcement went with it): we offer now. */
  onHandedOff(id: string): Promise<void>;
  /** A signed description or candidate from a verified peer, its fingerprint checked. */
  onSignal(from: string, body: SignalBody): Promise<void>;
  /** Someone changed what this peer sent on the way: no connection to it. */
  onTampered(id: string): void;
}

/** How long an announcement after a handoff waits for the description that normally follows it. */
export const LAZY_FLUSH_MS = 150;

export class KeyExchange {
  /** This page's keys, once made. */
  keys: MeetingCrypto | null = null;
  private readonly ready: Promise<MeetingCrypto>;
  /** Envelopes from peers we cannot check yet (unknown, or no key to check them with). */
  private readonly held = new Map<string, string[]>();
  private readonly making = new Map<string, Promise<unknown>>();
  private readonly outboxes = new Map<string, Outbox>();
  /** Participants this browser's host let in from the lobby: the only ones it hands the key to in a gated meeting. */
  private readonly letInHere = new Set<string>();
  private readonly verifiedWaiters = new Map<string, { promise: Promise<void>; resolve: () => void }>();
  /** Newcomers we handed S to, with our announcement. */
  private readonly handedOffTo = new Set<string>();
  /** Those who handed S to us (whether or not we still needed it): each of them offers to us. */
  private readonly handedOffBy = new Set<string>();
  /** Handoff requests that came while we had no S: answered when we get it. */
  private readonly unanswered = new Map<string, string>();
  /** POST /join carried our handoff key: everyone in the first welcome has it already. */
  private requestPosted: boolean;
  private readonly lazyFlushMs: number;

  constructor(
    keys: Promise<MeetingCrypto>,
    private readonly ctx: KeyExchangeContext,
    options: { requestPosted?: boolean; lazyFlushMs?: number } = {},
  ) {
    this.ready = keys.then((made) => (this.keys = made));
    this.requestPosted = options.requestPosted ?? false;
    this.lazyFlushMs = options.lazyFlushMs ?? LAZY_FLUSH_MS;
  }

  /** After the welcome: alone and without a key, we make it; with a key we announce ourselves; else we ask for it. */
  async enter(others: string[]) {
    const keys = await this.ready;
    if (!keys.hasSecret && others.length === 0) await keys.createSecret();
    if (keys.hasSecret) {
      this.ctx.setEncryption({ ...this.ctx.encryption(), status: 'on', source: keys.source, epoch: keys.currentEpoch });
      for (const id of others) this.sendHello(id, false);
      await this.answerUnanswered(keys);
    } else {
      this.ctx.setEncryption({ ...this.ctx.encryption(), status: 'waiting-key', source: null, epoch: 0 });
      const key = await keys.requestHandoff();
      // The first time, the server's `join` event brought our key to everyone present (issue 17).
      const posted = this.requestPosted;
      this.requestPosted = false;
      if (!posted) for (const id of others) this.sendEnvelopes(id, [{ k: 'handoff-request', key }]);
    }
  }

  /** The host let this participant in (before the server confirms: their request may come first). */
  letIn(id: string, confirmed = true) {
    if (confirmed) this.letInHere.add(id);
    else this.letInHere.delete(id);
  }

  /** A peer left: drop what we hold for it; if we still wait for S, ask those left (in event order). */
  forget(id: string): Promise<void> {
    this.keys?.forgetPeer(id);
    this.held.delete(id);
    this.making.delete(id);
    clearTimeout(this.outboxes.get(id)?.timer);
    this.outboxes.delete(id);
    this.verifiedWaiters.delete(id);
    this.unanswered.delete(id);
    this.handedOffTo.delete(id);
    this.handedOffBy.delete(id);
    return this.keys ? this.stillWaiting(this.keys) : Promise.resolve();
  }

  /** Resolves once this peer's announcement is verified (a connection made before waits here for its data-channel keys). */
  verified(id: string): Promise<void> {
    if (this.keys?.isVerified(id)) return Promise.resolve();
    let waiter = this.verifiedWaiters.get(id);
    if (!waiter) {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => (resolve = done));
      waiter = { promise, resolve };
      this.verifiedWaiters.set(id, waiter);
    }
    return waiter.promise;
  }

  /**
   * A message from another participant, checked before use: announcements against our room
   * secret, everything else against the signing key its announcement gave (E2EE.md).
   */
  async receive(from: string, text: string) {
    const keys = await this.ready;
    const envelope = parseEnvelope(text);
    if (!envelope) return;
    const known = this.ctx.peers().some((p) => p.id === from);
    const mustWait = !known || (envelope.k === 'hello' && !keys.hasSecret) || (envelope.k === 'signed' && !keys.isVerified(from));
    if (mustWait) return this.hold(from, text);
    await this.handle(keys, from, envelope);
  }

  /** Envelopes held for a peer, now that they can be checked. */
  async release(from: string) {
    const held = this.held.get(from);
    if (!held?.length) return;
    this.held.delete(from);
    for (const text of held) await this.receive(from, text);
  }

  /** A description or candidate for one peer, signed and numbered. */
  sendSignal(to: string, payload: SignalPayload) {
    // JSON round trip: the signed bytes must be exactly what the receiver parses.
    const body = JSON.parse(JSON.stringify(payload)) as JsonValue;
    this.enqueue(to, async () => JSON.stringify({ k: 'signed', signal: await this.keys!.sign(to, body) } satisfies Envelope));
  }

  /** The host, after a removal: the next epoch's secret, for the data channels of those who stay. */
  async nextEpoch(): Promise<{ epoch: number; secret: string } | null> {
    const keys = this.keys;
    if (!keys?.hasSecret) return null;
    const next = await keys.nextEpoch();
    this.ctx.setEncryption({ ...this.ctx.encryption(), epoch: next.epoch });
    return next;
  }

  /** A host's rekey, if it is for a later epoch. */
  async acceptRekey(epoch: number, encoded: string) {
    const secret = base64urlDecode(encoded);
    if (!secret || !this.keys || !(await this.keys.rotate(secret, epoch))) return;
    this.ctx.setEncryption({ ...this.ctx.encryption(), epoch });
  }

  private hold(from: string, text: string) {
    const queue = this.held.get(from) ?? [];
    if (queue.length < 200) queue.push(text);
    this.held.set(from, queue);
  }

  private async handle(keys: MeetingCrypto, from: string, envelope: Envelope) {
    switch (envelope.k) {
      case 'hello': {
        if (envelope.announcement.id !== from) return;
        const result = await keys.acceptAnnouncement(envelope.announcement);
        // Answered even on a mismatch, so a newcomer with the wrong key learns it at once. The
        // answer waits for our description when one follows at once — we offer, or a handoff
        // between us means one of us offers to the other — so the two go up in one POST
        // (issue 17). After a handoff the answer is redundant (ours went with the key), but it
        // recovers a lost one.
        const handoff = this.handedOffTo.has(from) || this.handedOffBy.has(from);
        if (!envelope.reply) this.sendHello(from, true, { lazy: handoff || this.ctx.selfId < from });
        this.ctx.setPeerKeys(from, result === 'ok' ? 'verified' : 'mismatch');
        this.checkWrongKey();
        if (result !== 'ok') return;
        this.verifiedWaiters.get(from)?.resolve();
        this.verifiedWaiters.delete(from);
        await this.ctx.onVerified(from, this.handedOffBy.has(from));
        await this.release(from);
        return;
      }
      case 'handoff-request':
        if (keys.hasSecret) return this.answerRequest(keys, from, envelope.key);
        // We wait for S too: answered once we have it.
        this.unanswered.set(from, envelope.key);
        return this.makeIfNobodyHolds(keys);
      case 'handoff': {
        // Whoever hands us S offers to us next (machine.ts), even if we already have S.
        this.handedOffBy.add(from);
        if (keys.hasSecret || !(await keys.acceptHandoff(from, envelope))) return;
        this.ctx.setEncryption({ ...this.ctx.encryption(), status: 'on', source: keys.source, epoch: keys.currentEpoch });
        await this.answerUnanswered(keys);
        // Our announcement goes up at once, alone: the holder verifies it (and derives our frame
        // keys) while we answer its offer, instead of after our answer came (issue 17, traced:
        // 5–40 ms of the holder's way from our answer to its first frame).
        for (const peer of this.ctx.peers()) {
          this.sendHello(peer.id, false);
          await this.release(peer.id);
        }
        return;
      }
      case 'signed':
        return this.onSigned(keys, from, envelope.signal as SignedSignal);
    }
  }

  private async answerRequest(keys: MeetingCrypto, from: string, key: string) {
    // Where newcomers wait in the lobby, the key goes only to those this host let in — not to
    // whoever the server says is in (it could let anyone in). The room's host coming back (a
    // reload) gets it too: nobody else could let people in.
    const host = this.ctx.peers().find((p) => p.id === from)?.isHost ?? false;
    const letIn = this.ctx.selfIsHost() && this.letInHere.has(from);
    if (this.ctx.gated() && !letIn && !host) return;
    if (!keys.canAnswerHandoff(key)) return;
    // Our announcement goes in the same POST: the newcomer verifies us as soon as it has S. We
    // offer now — its answer is only applied once it proved S — and the key waits for that offer
    // (lazily, LAZY_FLUSH_MS at most), so key, announcement and offer reach it together (issue 17).
    // The key is sealed while our link to the newcomer is made and its offer written: each takes
    // 10–20 ms on a busy machine and neither needs the other. Queued first, the sealed key stays
    // ahead of the offer. (A key the browser cannot use as a P-256 point fails the sealing: then
    // nothing goes to that newcomer, and the link waits for an answer that cannot come.)
    const sealed = keys.answerHandoff(from, key);
    // Its failure is handled where it is awaited, possibly after it failed: no unhandled rejection meanwhile.
    sealed.catch(() => undefined);
    this.enqueue(
      from,
      async () => {
        const handoff = await sealed;
        if (!handoff) throw new Error('no handoff');
        const announcement = keys.announcement();
        const envelopes: Envelope[] = [{ k: 'handoff', ...handoff }, ...(announcement ? [{ k: 'hello' as const, announcement, reply: true }] : [])];
        return envelopes.map((envelope) => JSON.stringify(envelope));
      },
      true,
    );
    this.handedOffTo.add(from);
    await this.ctx.onHandedOff(from);
  }

  /**
   * Someone left while we wait for S. Alone, we are the first now and make it. Otherwise we ask
   * those left again: a participant who joined after our request went out never got it, and may
   * be waiting for S as well (issue 17: two people could wait for each other forever).
   */
  private async stillWaiting(keys: MeetingCrypto) {
    if (keys.hasSecret || this.ctx.encryption().status !== 'waiting-key') return;
    const others = this.ctx.peers();
    if (others.length === 0) return this.enter([]);
    const key = await keys.requestHandoff();
    for (const peer of others) this.sendEnvelopes(peer.id, [{ k: 'handoff-request', key }]);
    await this.makeIfNobodyHolds(keys);
  }

  /**
   * Everyone here asked us for S while we wait for it: nobody here holds it. The smallest id
   * makes it, as the first participant does, and hands it to the others.
   */
  private async makeIfNobodyHolds(keys: MeetingCrypto) {
    if (keys.hasSecret || this.ctx.encryption().status !== 'waiting-key') return;
    const others = this.ctx.peers();
    if (others.length === 0 || !others.every((peer) => this.unanswered.has(peer.id))) return;
    if (others.some((peer) => peer.id < this.ctx.selfId)) return;
    await this.enter([]);
  }

  /** Requests that came while we had no S ourselves, from peers still here. */
  private async answerUnanswered(keys: MeetingCrypto) {
    const waiting = [...this.unanswered];
    this.unanswered.clear();
    for (const [from, key] of waiting) if (this.ctx.peers().some((p) => p.id === from)) await this.answerRequest(keys, from, key);
  }

  private async onSigned(keys: MeetingCrypto, from: string, signal: SignedSignal) {
    if (signal.from !== from || this.ctx.peers().find((p) => p.id === from)?.keys === 'tampered') return;
    const opened = await keys.open(signal);
    if (!opened.ok) {
      // A signature that does not verify means the relay changed the message: refuse the peer.
      if (opened.reason === 'signature') this.ctx.onTampered(from);
      return;
    }
    const body = parseSignalBody(opened.body);
    if (!body) return;
    // A relay that swaps the DTLS fingerprint would sit in the middle: refuse the connection.
    if ('description' in body && body.description.sdp && !keys.fingerprintMatches(from, body.description.sdp)) {
      return this.ctx.onTampered(from);
    }
    await this.ctx.onSignal(from, body);
  }

  /** Our link's key is not the meeting's when every participant's announcement fails under it. */
  private checkWrongKey() {
    const peers = this.ctx.peers();
    const current = this.ctx.encryption();
    const wrong = peers.length > 0 && peers.every((p) => p.keys === 'mismatch');
    const status = wrong ? 'wrong-key' : this.keys?.hasSecret ? 'on' : current.status;
    if (status !== current.status) this.ctx.setEncryption({ ...current, status, source: this.keys?.source ?? null });
  }

  private sendHello(to: string, reply: boolean, options: { lazy?: boolean } = {}) {
    const announcement = this.keys?.announcement();
    if (announcement) this.enqueue(to, async () => JSON.stringify({ k: 'hello', announcement, reply } satisfies Envelope), options.lazy);
  }

  /** Envelopes for one peer that go up together, in this order. */
  private sendEnvelopes(to: string, envelopes: Envelope[], options: { lazy?: boolean } = {}) {
    this.enqueue(to, async () => envelopes.map((envelope) => JSON.stringify(envelope)), options.lazy);
  }

  /**
   * Messages to one peer keep their order: an announcement before the offer, the offer before its
   * candidates. They are made (signed) one after another, and go up in one POST at a time; what
   * queued meanwhile goes in the next POST together, so a burst of candidates costs one round
   * trip, not one each.
   */
  private enqueue(to: string, make: () => Promise<string | string[]>, lazy = false) {
    const previous = this.making.get(to) ?? Promise.resolve();
    const next = previous.then(async () => this.push(to, await make(), lazy)).catch(() => undefined);
    this.making.set(to, next);
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
      await this.ctx.post(to, batch).catch(() => undefined);
    }
    box.sending = false;
  }
}

interface Outbox {
  items: string[];
  /** Something waiting must go up now: a message that is not lazy, or a lazy one's wait is over. */
  due: boolean;
  sending: boolean;
  /** Flushes lazy messages that nothing followed. */
  timer: ReturnType<typeof setTimeout> | undefined;
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
