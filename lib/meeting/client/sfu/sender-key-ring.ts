// This page's sender keys through the SFU (docs/e2ee-crypto.md "Sender keys", "Rotation"): the key
// our frames go out under, the keys of the others' frames, a ratchet on every join, and fresh keys
// on a leave and every interval (key-schedule.ts decides when). The keys travel as signed signals,
// each sealed to one receiver under our pair secret (sealsWith), with the public key our frames
// are signed with (frame-proof.ts); the frame worker holds them under SFU_SEND / sfuPeer(id),
// apart from the mesh's pairwise keys, and follows the others' ratchets itself.
import { generateFrameProofKey } from '@/lib/meeting/e2ee/frame-proof';
import {
  FOLLOW_GENERATIONS,
  generateSenderKey,
  openSenderKeyFrom,
  ratchetSenderKey,
  sealSenderKeyFor,
  senderKid,
  senderMediaBaseKey,
  type SenderKey,
} from '@/lib/meeting/e2ee/sender-keys';
import type { MeetingCrypto } from '../keys/meeting-crypto';
import type { FrameBackend } from '../frames/frame-backends';
import { SLOTS } from '../links/slots';
import { DEFAULT_SCHEDULE, INITIAL_SCHEDULE, mayHold, rotationDueAt, stepSchedule, type ScheduleEvent, type ScheduleSettings } from './key-schedule';

/** The frame worker's name for what we send to the SFU. */
export const SFU_SEND = 'sfu';
/** The frame worker's name for what one participant sends us through the SFU. */
export const sfuPeer = (participantId: string) => `sfu:${participantId}`;

/**
 * A new key goes out at once but frames use it only this much later, so that everyone here has
 * it before the first frame it seals arrives (a frame under a key not yet known is dropped: a
 * glitch, never clear text). Receivers keep the previous generation meanwhile (no gap).
 */
export const SWITCH_DELAY_MS = 1000;
/** Several leaving together make one rotation, not one each (key-schedule.ts). */
export const ROTATE_DEBOUNCE_MS = DEFAULT_SCHEDULE.debounceMs;

export interface SenderKeyContext {
  frames: Pick<FrameBackend, 'setSendKey' | 'setReceiveChain' | 'dropReceiveKey' | 'setFrameSigner' | 'setFrameVerifier'>;
  /** Our key sealed for one verified peer; null when the peer is not (or no longer) verified. */
  seal(peerId: string, key: SenderKey): Promise<string | null>;
  open(peerId: string, generation: number, box: string): Promise<SenderKey | null>;
  /** A signed signal to one peer. */
  send(peerId: string, body: { senderKey: { generation: number; box: string } }): void;
  /** The verified peers in the call now. */
  peers(): string[];
  /**
   * Everyone in the call now, verified or not (default: peers()). Those here when we make our first
   * key came before any frame it seals, so they may hold it once verified: no rotation for them.
   */
  here?(): string[];
  /** Tests shorten the interval (and the debounce); the call uses DEFAULT_SCHEDULE. */
  schedule?: Partial<ScheduleSettings>;
  now?: () => number;
}

/** Seal and open for the ring, under this page's pair secret with each verified peer. */
export function sealsWith(keys: Pick<MeetingCrypto, 'pairSecret' | 'meetingId' | 'selfId'>): Pick<SenderKeyContext, 'seal' | 'open'> {
  return {
    seal: async (peerId, key) => {
      const pair = keys.pairSecret(peerId);
      return pair ? sealSenderKeyFor(pair, { roomId: keys.meetingId, senderId: keys.selfId, receiverId: peerId }, key) : null;
    },
    open: async (peerId, generation, box) => {
      const pair = keys.pairSecret(peerId);
      return pair ? openSenderKeyFrom(pair, { roomId: keys.meetingId, senderId: peerId, receiverId: keys.selfId }, generation, box) : null;
    },
  };
}

type Reason = 'leave' | 'room';
/** Which reason names a burst: a new split wins over a leave. */
const WEIGHT: Record<Reason, number> = { leave: 1, room: 2 };

/**
 * Whom a key made now goes to (docs/e2ee-crypto.md "Breakout key epochs"): the verified peers
 * still here and in our breakout room. A sender's key is its room's: another room never holds it.
 */
export function keyRecipients(verified: readonly string[], gone: ReadonlySet<string>, apart: (peerId: string) => boolean): string[] {
  return verified.filter((id) => !gone.has(id) && !apart(id));
}

export class SenderKeyRing {
  /** The key our frames are sealed with now. */
  private current: SenderKey | null = null;
  /** A newer key already given to the others, in use after SWITCH_DELAY_MS. */
  private next: SenderKey | null = null;
  private generations = 0;
  private rotateTimer: ReturnType<typeof setTimeout> | null = null;
  /** One per rotation given out and not yet in use: rotations closer than SWITCH_DELAY_MS must not starve each other's switch. */
  private readonly switchTimers = new Set<ReturnType<typeof setTimeout>>();
  private schedule = INITIAL_SCHEDULE;
  private readonly settings: ScheduleSettings;
  private readonly now: () => number;
  /** The key pair our frames and our messages through the SFU are signed with (its public half given with every key; the frame worker holds the private half too). */
  private proof: Promise<{ privateKey: CryptoKey; publicKey: Uint8Array<ArrayBuffer> }> | null = null;
  /** The newest box of each sender, as opened: an older or repeated box changes nothing; the frame worker follows its ratchets. */
  private readonly held = new Map<string, SenderKey>();
  /** Each sender's box before the newest, for messages sealed under it that are still on their way (dropped after the grace). */
  private readonly previous = new Map<string, SenderKey>();
  /** The last key opening() derived of each sender's chain, and the box it started from. */
  private readonly followed = new Map<string, { base: SenderKey; key: SenderKey }>();
  /** Drops of a sender's previous generations, each after the grace (stopped with the ring). */
  private readonly graceTimers = new Set<ReturnType<typeof setTimeout>>();
  /** Our ratchets one after another: each starts from the key the one before made. */
  private ratchets: Promise<void> = Promise.resolve();
  /** The generation of our newest fresh (random) key: ratchets start from it. */
  private freshGeneration = 0;
  /** When the key in `next` goes into use (a ratchet made meanwhile waits for it). */
  private nextInUseAt = 0;
  /** Per peer, the first generation of ours it may hold (key-schedule.ts mayHold): nothing from before it came. */
  private readonly admitted = new Map<string, number>();
  /** Those who left: a late box from them is not installed. */
  private readonly gone = new Set<string>();
  private stopped = false;
  /** How many keys we made, by why (tests and the bench: `join` counts ratchets, a burst of leaves is one rotation; `room`: breakout rooms opened, closed or visited). */
  readonly rotations = { join: 0, leave: 0, interval: 0, room: 0 };
  private pendingReason: Reason | null = null;
  /** Peers in another breakout room than ours (breakout/breakout-rules.ts apart): none of our keys goes to them. */
  private apart: (peerId: string) => boolean = () => false;

  constructor(private readonly ctx: SenderKeyContext) {
    this.settings = { ...DEFAULT_SCHEDULE, ...ctx.schedule };
    this.now = ctx.now ?? (() => Date.now());
  }

  /** Our first key: installed, and given to every verified peer. */
  async start(): Promise<void> {
    if (this.current) return;
    const key = this.make();
    for (const id of this.ctx.here?.() ?? this.ctx.peers()) if (!this.admitted.has(id)) this.admitted.set(id, key.generation);
    await this.install(key);
    this.current = key;
    this.step({ type: 'started', at: this.now() });
    await Promise.all(this.recipients().map((id) => this.give(id, key)));
  }

  /**
   * Breakout rooms opened, closed or the host moved (breakout/breakout-feature.ts): a fresh key for
   * those in our room now, of which nobody elsewhere gets anything; the keys we hold of senders now
   * in another room are dropped after the grace (frames in flight), so a visit leaves none behind.
   */
  regroup(apart: (peerId: string) => boolean): void {
    this.apart = apart;
    for (const [from, { generation }] of this.held) if (apart(from)) this.dropLater(from, generation, generation + FOLLOW_GENERATIONS);
    if (this.current) this.changed('room');
  }

  get generation(): number | null {
    return this.current?.generation ?? null;
  }

  /** The generation of the newest box from each sender (tests: who got which rotation). */
  received(): Record<string, number> {
    return Object.fromEntries([...this.held].map(([from, key]) => [from, key.generation]));
  }

  /** Tests only (probe.ts): the newest key handed to us by each sender, to try on ciphertext a tap kept from before we came. */
  heldKeys(): Record<string, SenderKey> {
    return Object.fromEntries(this.held);
  }

  /**
   * A peer verified (or joined the SFU). One already here gets the keys it may hold again; one
   * newly admitted gets none of the keys made before it came: every sender ratchets its key at
   * once, hands the newcomer the result, and sends under it; those already here derive it
   * themselves when its first frame comes (frame-transform.ts setReceiveChain), so a join costs
   * one box per sender.
   */
  async peerVerified(peerId: string): Promise<void> {
    const returning = this.admitted.has(peerId) && !this.gone.has(peerId);
    this.gone.delete(peerId);
    if (!returning) {
      // Before our first key is in use no frame is sealed under it: the newcomer may hold it.
      this.admitted.set(peerId, this.current ? this.generations : 0);
      if (this.current) await this.ratchetForJoin();
    }
    const admittedAt = this.admitted.get(peerId)!;
    const keys = [this.current, this.next].filter((key): key is SenderKey => key !== null && mayHold(key.generation, admittedAt));
    await Promise.all(keys.map((key) => this.give(peerId, key)));
  }

  /** Someone left or was removed: a new key for those who stay, of which the leaver gets nothing. */
  peerLeft(peerId: string): void {
    this.gone.add(peerId);
    this.admitted.delete(peerId);
    this.held.delete(peerId);
    this.previous.delete(peerId);
    this.followed.delete(peerId);
    if (this.current) this.changed('leave');
  }

  /** A box from a peer: its key opens its frames from now on (the older keys stay for frames in flight). */
  async receive(from: string, generation: number, box: string): Promise<boolean> {
    const newer = () => !this.gone.has(from) && (this.held.get(from)?.generation ?? -1) < generation;
    if (!newer()) return false;
    const key = await this.ctx.open(from, generation, box);
    if (!key || !newer()) return false;
    const before = this.held.get(from);
    this.held.set(from, key);
    // The previous box and what the worker followed from it: for frames and messages in flight, then gone.
    if (before) {
      this.previous.set(from, before);
      this.dropLater(from, before.generation, generation);
    }
    // The proof key first: a frame under the new key is never opened without its signature checked.
    if (key.proof) await this.ctx.frames.setFrameVerifier(sfuPeer(from), key.proof);
    await this.ctx.frames.setReceiveChain(sfuPeer(from), key);
    return true;
  }

  /**
   * Tests only (probe.ts, meeting-sfu-injection.spec.ts): seal our frames with a key we hold of
   * `peerId` (its newest box's, or the given generation's), under its KID, as a participant forging
   * that sender's frames would. They are still signed with our own frame-proof key: no other is
   * ours to sign with. False without such a key.
   */
  async impersonate(peerId: string, generation?: number): Promise<boolean> {
    let key = this.held.get(peerId);
    // A later generation of its chain, as the frame worker derives it.
    while (key && generation !== undefined && key.generation < generation) key = await ratchetSenderKey(key);
    if (!key || (generation !== undefined && key.generation !== generation)) return false;
    await Promise.all(
      SLOTS.map(async (slot) =>
        this.ctx.frames.setSendKey(
          SFU_SEND,
          slot,
          `forged ${peerId} ${key.generation} ${slot}`,
          senderKid(key.generation),
          await senderMediaBaseKey(key.key, slot),
        ),
      ),
    );
    return true;
  }

  /**
   * What our messages to everyone through the SFU are sealed with (sfu/sfu-data.ts): the key our
   * frames go out under now, which everyone who hears us holds or derives, and our frame-proof
   * key's private half. Null before our first key.
   */
  async sealing(): Promise<{ key: SenderKey; signer: CryptoKey } | null> {
    const key = this.current;
    if (!key || !this.proof) return null;
    return { key, signer: (await this.proof).privateKey };
  }

  /**
   * The key `from` sealed its generation `generation` under, as the frame worker finds it: its
   * newest box, the one before it during the grace, or a ratchet of either at most
   * FOLLOW_GENERATIONS on (a join moved it on; sender-chain.ts). Null for any other: a fresh key
   * whose box has not come, or one never given to us. Whoever asks checks the message's signature,
   * so a derived key opens nothing but what the sender sealed.
   */
  async opening(from: string, generation: number): Promise<SenderKey | null> {
    const bases = [this.held.get(from), this.previous.get(from)].filter((key): key is SenderKey => key !== undefined);
    const base =
      bases.find((key) => key.generation === generation) ??
      bases.find((key) => generation > key.generation && generation - key.generation <= FOLLOW_GENERATIONS);
    if (!base) return null;
    // A join's ratchet is asked for by every message after it: derived once, from the last one derived on the same chain.
    const memo = this.followed.get(from);
    let key = memo && memo.base === base && memo.key.generation <= generation ? memo.key : base;
    while (key.generation < generation) key = await ratchetSenderKey(key);
    if (key !== base) this.followed.set(from, { base, key });
    return key;
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.graceTimers) clearTimeout(timer);
    this.graceTimers.clear();
    if (this.rotateTimer) clearTimeout(this.rotateTimer);
    for (const timer of this.switchTimers) clearTimeout(timer);
    this.switchTimers.clear();
    this.rotateTimer = null;
  }

  /** Generations `from` up to `until` (not included) open frames in flight for the grace, then nothing: no old keys held for long. */
  private dropLater(peerId: string, from: number, until: number) {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.graceTimers.delete(timer);
      // A box that came meanwhile (back in our breakout room) starts a chain that stays.
      const newest = this.held.get(peerId)?.generation;
      const end = newest !== undefined && newest > from ? Math.min(until, newest) : until;
      if (this.previous.get(peerId)?.generation === from) this.previous.delete(peerId);
      for (let generation = from; generation < end; generation += 1)
        for (const slot of SLOTS) void this.ctx.frames.dropReceiveKey(sfuPeer(peerId), slot, senderKid(generation)).catch(() => undefined);
    }, this.settings.graceMs);
    this.graceTimers.add(timer);
  }

  private changed(reason: Reason) {
    if (this.pendingReason === null || WEIGHT[reason] > WEIGHT[this.pendingReason]) this.pendingReason = reason;
    this.step({ type: 'changed', at: this.now() });
  }

  /** Moves the schedule on and sets the one timer to its next rotation. */
  private step(event: ScheduleEvent) {
    this.schedule = stepSchedule(this.schedule, event);
    if (this.rotateTimer) clearTimeout(this.rotateTimer);
    this.rotateTimer = null;
    const due = rotationDueAt(this.schedule, this.settings);
    if (due === null || this.stopped) return;
    this.rotateTimer = setTimeout(() => void this.rotate(), Math.max(0, due - this.now()));
  }

  /** Makes a fresh key, hands it to those here, and sends under it SWITCH_DELAY_MS later. */
  private async rotate(): Promise<void> {
    this.rotateTimer = null;
    this.rotations[this.pendingReason ?? 'interval'] += 1;
    this.pendingReason = null;
    const key = this.make();
    this.next = key;
    this.nextInUseAt = this.now() + SWITCH_DELAY_MS;
    this.step({ type: 'rotated', at: this.now() });
    await Promise.all(this.recipients().map((id) => this.give(id, key)));
    if (!this.stopped) this.useAfter(key, SWITCH_DELAY_MS);
  }

  /**
   * A join: the next generation of our newest key, one way (sender-keys.ts ratchetSenderKey). Those
   * here already hold it, so it is in use at once, unless a fresh key is still on its way to them:
   * then it waits for that one's switch. Serialised, so each ratchet starts from the one before.
   */
  private ratchetForJoin(): Promise<void> {
    this.ratchets = this.ratchets.then(async () => {
      const newest = this.next ?? this.current;
      if (!newest || this.stopped) return;
      // Receivers follow a chain only so far from the fresh key it started at: past that, a fresh key
      // (as on the interval; this joiner gets it with everyone).
      if (newest.generation + 1 - this.freshGeneration >= FOLLOW_GENERATIONS) return this.step({ type: 'changed', at: this.now() });
      const key = await ratchetSenderKey(newest);
      // A fresh key made meanwhile covers this join (it goes to every verified peer): nothing to do.
      if (key.generation !== this.generations || this.stopped) return;
      this.generations += 1;
      this.rotations.join += 1;
      if (this.next) {
        this.next = key;
        this.useAfter(key, Math.max(0, this.nextInUseAt - this.now()));
        return;
      }
      await this.install(key);
      if (!this.current || key.generation > this.current.generation) this.current = key;
    });
    return this.ratchets;
  }

  /** Frames go out under `key` after `delayMs` (fresh keys: once everyone here has it). */
  private useAfter(key: SenderKey, delayMs: number) {
    const timer = setTimeout(() => {
      this.switchTimers.delete(timer);
      // A ratchet's timer may fire before the fresh key's it replaced: an older key never goes over a newer one.
      if (this.current && this.current.generation >= key.generation) return;
      void this.install(key).then(() => {
        // A later rotation may have started meanwhile: only the newest becomes current.
        if (this.next === key) this.next = null;
        if (!this.current || key.generation > this.current.generation) this.current = key;
      });
    }, delayMs);
    this.switchTimers.add(timer);
  }

  private recipients(): string[] {
    return keyRecipients(this.ctx.peers(), this.gone, this.apart);
  }

  private make(): SenderKey {
    this.freshGeneration = this.generations;
    return generateSenderKey(this.generations++);
  }

  /** Our frame-proof key, made once per page and handed to the frame worker before any frame is sealed. */
  private async proofKey(): Promise<Uint8Array<ArrayBuffer>> {
    this.proof ??= generateFrameProofKey().then(async (pair) => {
      await this.ctx.frames.setFrameSigner(SFU_SEND, pair.privateKey);
      return pair;
    });
    return (await this.proof).publicKey;
  }

  private async install(key: SenderKey): Promise<void> {
    await this.proofKey();
    await Promise.all(
      SLOTS.map(async (slot) =>
        this.ctx.frames.setSendKey(SFU_SEND, slot, `${SFU_SEND} ${key.generation} ${slot}`, senderKid(key.generation), await senderMediaBaseKey(key.key, slot)),
      ),
    );
  }

  private async give(peerId: string, key: SenderKey): Promise<void> {
    const box = await this.ctx.seal(peerId, { ...key, proof: await this.proofKey() });
    const admittedAt = this.admitted.get(peerId);
    // Checked again after the await: the peer may have left, (re)joined after this key was made, or gone to another room.
    if (box && !this.gone.has(peerId) && !this.apart(peerId) && (admittedAt === undefined || mayHold(key.generation, admittedAt)))
      this.ctx.send(peerId, { senderKey: { generation: key.generation, box } });
  }
}
