// Who holds the meeting's key and whom to trust (docs/e2ee-crypto.md "Who gets S", "Signaling"): the
// announcements tagged under the room secret, the handoff to newcomers, signed signals with their
// fingerprint check, and the host's rekey after a removal. The session owns the connections and
// the screen state; this module tells it when a peer is verified, refused, or has sent a signal.
// What to do on each message is decided in key-decisions.ts; this shell holds the keys, the
// messages not yet checkable and the outbox, and runs the decisions' effects in order.
import { base64urlDecode } from '@/lib/meeting/e2ee/bytes';
import type { JsonValue, SignedSignal } from '@/lib/meeting/e2ee/signing';
import type { MeetingCrypto } from './meeting-crypto';
import { parseEnvelope, parseSignalBody, type Envelope, type LinkSignalBody, type SignalBody } from './envelope';
import {
  decide,
  describedSdp,
  initialExchange,
  mustHold,
  type ExchangeEffect,
  type ExchangeInput,
  type ExchangeState,
  type Facts,
  type SignalCheck,
} from './key-decisions';
import type { EncryptionState, PeerKeyState } from './key-state';
import { SignalOutbox } from './signal-outbox';
import type { SignalPayload } from '../links/slots';

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
  onSignal(from: string, body: LinkSignalBody): Promise<void>;
  /** A verified peer's sealed sender key, for its frames through the SFU (issue 38); dropped without an SFU. */
  onSenderKey?(from: string, generation: number, box: string): Promise<void>;
  /** Someone changed what this peer sent on the way: no connection to it. */
  onTampered(id: string): void;
}

export class KeyExchange {
  /** This page's keys, once made. */
  keys: MeetingCrypto | null = null;
  private readonly ready: Promise<MeetingCrypto>;
  private state: ExchangeState;
  /** Envelopes from peers we cannot check yet (unknown, or no key to check them with). */
  private readonly held = new Map<string, string[]>();
  private readonly outbox: SignalOutbox;
  private readonly verifiedWaiters = new Map<string, { promise: Promise<void>; resolve: () => void }>();

  constructor(
    keys: Promise<MeetingCrypto>,
    private readonly ctx: KeyExchangeContext,
    options: { requestPosted?: boolean; lazyFlushMs?: number } = {},
  ) {
    this.ready = keys.then((made) => (this.keys = made));
    this.state = initialExchange(ctx.selfId, options.requestPosted ?? false);
    this.outbox = new SignalOutbox((to, envelopes) => this.ctx.post(to, envelopes), options.lazyFlushMs);
  }

  /** After the welcome: alone and without a key, we make it; with a key we announce ourselves; else we ask for it. */
  async enter(others: string[]) {
    await this.ready;
    await this.step({ type: 'enter', others });
  }

  /** The host let this participant in (before the server confirms: their request may come first). */
  letIn(id: string, confirmed = true) {
    void this.step({ type: 'let-in', id, confirmed });
  }

  /** A peer left: drop what we hold for it; if we still wait for S, ask those left (in event order). */
  forget(id: string): Promise<void> {
    this.keys?.forgetPeer(id);
    this.held.delete(id);
    this.outbox.forget(id);
    this.verifiedWaiters.delete(id);
    return this.step({ type: 'peer-left', id, keysReady: this.keys !== null }) ?? Promise.resolve();
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
   * secret, everything else against the signing key its announcement gave (docs/e2ee-crypto.md).
   */
  async receive(from: string, text: string) {
    const keys = await this.ready;
    const envelope = parseEnvelope(text);
    if (!envelope) return;
    const peer = this.ctx.peers().some((p) => p.id === from);
    if (mustHold(envelope.k, { peer, hasSecret: keys.hasSecret, verified: keys.isVerified(from) })) return this.hold(from, text);
    await this.step(inputOf(keys, from, envelope));
  }

  /** Envelopes held for a peer, now that they can be checked. */
  async release(from: string) {
    const held = this.held.get(from);
    if (!held?.length) return;
    this.held.delete(from);
    for (const text of held) await this.receive(from, text);
  }

  /** A description or candidate for one peer, signed and numbered. */
  sendSignal(to: string, payload: SignalPayload | Extract<SignalBody, { senderKey: unknown }>) {
    // JSON round trip: the signed bytes must be exactly what the receiver parses.
    const body = JSON.parse(JSON.stringify(payload)) as JsonValue;
    this.outbox.enqueue(to, async () => JSON.stringify({ k: 'signed', signal: await this.keys!.sign(to, body) } satisfies Envelope));
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

  private facts(): Facts {
    return {
      hasSecret: this.keys?.hasSecret ?? false,
      source: this.keys?.source ?? null,
      selfIsHost: this.ctx.selfIsHost(),
      gated: this.ctx.gated(),
      peers: this.ctx.peers(),
      encryption: this.ctx.encryption(),
    };
  }

  /**
   * Decides on an input with the facts of now, then runs the effects in order. Only the effects
   * that wait for something are awaited: the rest run at once, in the same task, as before the
   * decisions moved out (setting the indicator, queueing a message, refusing a peer).
   */
  private step(input: ExchangeInput): Promise<void> | undefined {
    const { state, effects } = decide(this.state, input, this.facts());
    this.state = state;
    return this.runAll(effects);
  }

  private runAll(effects: ExchangeEffect[]): Promise<void> | undefined {
    for (let i = 0; i < effects.length; i += 1) {
      const waiting = this.run(effects[i]!);
      if (waiting) return waiting.then(() => this.runAll(effects.slice(i + 1)));
    }
    return undefined;
  }

  private run(effect: ExchangeEffect): Promise<void> | undefined {
    const keys = this.keys!;
    switch (effect.type) {
      case 'make-secret':
        return keys.createSecret();
      case 'drop-secret':
        keys.dropSecret();
        return undefined;
      case 'enter':
        return this.step({ type: 'enter', others: effect.others });
      case 'encryption-on':
        this.ctx.setEncryption({ ...this.ctx.encryption(), status: 'on', source: keys.source, epoch: keys.currentEpoch });
        return undefined;
      case 'encryption':
        this.ctx.setEncryption({ ...this.ctx.encryption(), ...effect.patch });
        return undefined;
      case 'announce':
        this.sendHello(effect.to, effect.reply, effect.lazy);
        return undefined;
      case 'announce-to-all':
        return this.announceToAll();
      case 'ask-for-key':
        return this.askForKey(keys, effect.to);
      case 'answer-waiting':
        return this.answerWaiting(keys, effect.requests);
      case 'hand-key':
        this.handKey(keys, effect.to, effect.key);
        return undefined;
      case 'handed-off':
        return this.ctx.onHandedOff(effect.to);
      case 'check-announcement':
        return keys
          .acceptAnnouncement(effect.announcement)
          .then((result) => this.step({ type: 'announcement-checked', from: effect.from, reply: effect.reply, result }));
      case 'open-handoff':
        return keys.acceptHandoff(effect.from, effect.handoff).then((opened) => (opened ? this.step({ type: 'key-received' }) : undefined));
      case 'open-signal':
        return this.checkSignal(keys, effect.from, effect.signal as SignedSignal).then((check) =>
          this.step({ type: 'signal-checked', from: effect.from, check }),
        );
      case 'peer-keys':
        this.ctx.setPeerKeys(effect.id, effect.keys);
        return undefined;
      case 'verified':
        this.verifiedWaiters.get(effect.id)?.resolve();
        this.verifiedWaiters.delete(effect.id);
        return this.ctx.onVerified(effect.id, effect.theyHandedOff);
      case 'release':
        return this.release(effect.id);
      case 'tampered':
        this.ctx.onTampered(effect.id);
        return undefined;
      case 'signal':
        if ('senderKey' in effect.body) {
          const { generation, box } = effect.body.senderKey;
          return this.ctx.onSenderKey?.(effect.from, generation, box);
        }
        return this.ctx.onSignal(effect.from, effect.body);
      case 'recheck':
        return this.step({ type: effect.input });
    }
  }

  private sendHello(to: string, reply: boolean, lazy = false) {
    const announcement = this.keys?.announcement();
    if (announcement) this.outbox.enqueue(to, async () => JSON.stringify({ k: 'hello', announcement, reply } satisfies Envelope), lazy);
  }

  /** Every peer here gets our announcement, and what it sent before we could check it is checked now. */
  private async announceToAll() {
    for (const peer of this.ctx.peers()) {
      this.sendHello(peer.id, false);
      await this.release(peer.id);
    }
  }

  private async askForKey(keys: MeetingCrypto, to: readonly string[]) {
    const key = await keys.requestHandoff();
    for (const id of to) this.outbox.enqueue(id, async () => [JSON.stringify({ k: 'handoff-request', key } satisfies Envelope)]);
  }

  /** Requests that came while we had no S ourselves, from peers still here. */
  private async answerWaiting(keys: MeetingCrypto, requests: readonly (readonly [string, string])[]) {
    for (const [from, key] of requests) await this.step({ type: 'handoff-request', from, key, canAnswer: keys.canAnswerHandoff(key) });
  }

  /**
   * Our announcement goes in the same POST: the newcomer verifies us as soon as it has S. We
   * offer now — its answer is only applied once it proved S — and the key waits for that offer
   * (lazily, LAZY_FLUSH_MS at most), so key, announcement and offer reach it together (issue 17).
   * The key is sealed while our link to the newcomer is made and its offer written: each takes
   * 10–20 ms on a busy machine and neither needs the other. Queued first, the sealed key stays
   * ahead of the offer. (A key the browser cannot use as a P-256 point fails the sealing: then
   * nothing goes to that newcomer, and the link waits for an answer that cannot come.)
   */
  private handKey(keys: MeetingCrypto, to: string, key: string) {
    const sealed = keys.answerHandoff(to, key);
    // Its failure is handled where it is awaited, possibly after it failed: no unhandled rejection meanwhile.
    sealed.catch(() => undefined);
    this.outbox.enqueue(
      to,
      async () => {
        const handoff = await sealed;
        if (!handoff) throw new Error('no handoff');
        const announcement = keys.announcement();
        const envelopes: Envelope[] = [{ k: 'handoff', ...handoff }, ...(announcement ? [{ k: 'hello' as const, announcement, reply: true }] : [])];
        return envelopes.map((envelope) => JSON.stringify(envelope));
      },
      true,
    );
  }

  /** The signature, then the DTLS fingerprint in a description: what the decisions need to know. */
  private async checkSignal(keys: MeetingCrypto, from: string, signal: SignedSignal): Promise<SignalCheck> {
    const opened = await keys.open(signal);
    if (!opened.ok) return { ok: false, reason: opened.reason === 'signature' ? 'signature' : 'other' };
    const body = parseSignalBody(opened.body);
    const sdp = body && describedSdp(body);
    return { ok: true, body, fingerprintMatches: !sdp || keys.fingerprintMatches(from, sdp) };
  }
}

/** A parsed envelope as the decisions' input. */
function inputOf(keys: MeetingCrypto, from: string, envelope: Envelope): ExchangeInput {
  switch (envelope.k) {
    case 'hello':
      return { type: 'hello', from, announcement: envelope.announcement, reply: envelope.reply };
    case 'handoff-request':
      return { type: 'handoff-request', from, key: envelope.key, canAnswer: keys.canAnswerHandoff(envelope.key) };
    case 'handoff':
      return { type: 'handoff', from, handoff: { holderKey: envelope.holderKey, box: envelope.box } };
    case 'signed':
      return { type: 'signed', from, signal: envelope.signal };
  }
}
