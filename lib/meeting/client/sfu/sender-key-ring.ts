// This page's sender keys through the SFU (docs/e2ee-crypto.md "Sender keys"): the key our frames
// go out under, the keys of the others' frames, and the rotation when someone leaves. The keys
// travel as signed signals, each sealed to one receiver under our pair secret (sealsWith); the frame
// worker holds them under SFU_SEND / sfuPeer(id), apart from the mesh's pairwise keys.
import { generateSenderKey, openSenderKeyFrom, sealSenderKeyFor, senderKid, senderMediaBaseKey, type SenderKey } from '@/lib/meeting/e2ee/sender-keys';
import type { MeetingCrypto } from '../keys/meeting-crypto';
import type { FrameBackend } from '../frames/frame-backends';
import { SLOTS } from '../links/slots';

/** The frame worker's name for what we send to the SFU. */
export const SFU_SEND = 'sfu';
/** The frame worker's name for what one participant sends us through the SFU. */
export const sfuPeer = (participantId: string) => `sfu:${participantId}`;

/**
 * After someone leaves, the new key goes out at once but frames use it only this much later, so
 * that those who stay have it before the first frame it seals arrives (a frame under a key not
 * yet known is dropped: a glitch, never clear text).
 */
export const SWITCH_DELAY_MS = 1000;
/** Several leaving together (the end of a meeting) make one rotation, not one each. */
export const ROTATE_DEBOUNCE_MS = 200;

export interface SenderKeyContext {
  frames: Pick<FrameBackend, 'setSendKey' | 'setReceiveKey'>;
  /** Our key sealed for one verified peer; null when the peer is not (or no longer) verified. */
  seal(peerId: string, key: SenderKey): Promise<string | null>;
  open(peerId: string, generation: number, box: string): Promise<SenderKey | null>;
  /** A signed signal to one peer. */
  send(peerId: string, body: { senderKey: { generation: number; box: string } }): void;
  /** The verified peers in the call now. */
  peers(): string[];
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

export class SenderKeyRing {
  /** The key our frames are sealed with now. */
  private current: SenderKey | null = null;
  /** A newer key already given to the others, in use after SWITCH_DELAY_MS. */
  private next: SenderKey | null = null;
  private generations = 0;
  private rotateTimer: ReturnType<typeof setTimeout> | null = null;
  private switchTimer: ReturnType<typeof setTimeout> | null = null;
  /** The newest generation installed per sender: an older or repeated box changes nothing. */
  private readonly receivedGenerations = new Map<string, number>();
  /** Those who left: a late box from them is not installed. */
  private readonly gone = new Set<string>();

  constructor(private readonly ctx: SenderKeyContext) {}

  /** Our first key: installed, and given to every verified peer. */
  async start(): Promise<void> {
    if (this.current) return;
    const key = this.make();
    await this.install(key);
    this.current = key;
    await Promise.all(this.ctx.peers().map((id) => this.give(id, key)));
  }

  get generation(): number | null {
    return this.current?.generation ?? null;
  }

  /** The newest generation of each sender's key we hold (tests: who got which rotation). */
  received(): Record<string, number> {
    return Object.fromEntries(this.receivedGenerations);
  }

  /** A peer verified (or joined the SFU) after our key was made: it gets the key in use, and the next one if any. */
  async peerVerified(peerId: string): Promise<void> {
    this.gone.delete(peerId);
    await Promise.all([this.current, this.next].filter((key): key is SenderKey => key !== null).map((key) => this.give(peerId, key)));
  }

  /** Someone left or was removed: a new key for those who stay, of which the leaver gets nothing. */
  peerLeft(peerId: string): void {
    this.gone.add(peerId);
    this.receivedGenerations.delete(peerId);
    if (!this.current) return;
    if (this.rotateTimer) clearTimeout(this.rotateTimer);
    this.rotateTimer = setTimeout(() => void this.rotate(), ROTATE_DEBOUNCE_MS);
  }

  /** A box from a peer: its key opens its frames from now on (the older keys stay for frames in flight). */
  async receive(from: string, generation: number, box: string): Promise<boolean> {
    if (this.gone.has(from) || (this.receivedGenerations.get(from) ?? -1) >= generation) return false;
    const key = await this.ctx.open(from, generation, box);
    if (!key || this.gone.has(from) || (this.receivedGenerations.get(from) ?? -1) >= generation) return false;
    this.receivedGenerations.set(from, generation);
    await Promise.all(
      SLOTS.map(async (slot) => this.ctx.frames.setReceiveKey(sfuPeer(from), slot, senderKid(generation), await senderMediaBaseKey(key.key, slot))),
    );
    return true;
  }

  stop(): void {
    if (this.rotateTimer) clearTimeout(this.rotateTimer);
    if (this.switchTimer) clearTimeout(this.switchTimer);
    this.rotateTimer = this.switchTimer = null;
  }

  /** Makes the next key, hands it to those here, and sends under it SWITCH_DELAY_MS later. */
  private async rotate(): Promise<void> {
    this.rotateTimer = null;
    const key = this.make();
    this.next = key;
    await Promise.all(
      this.ctx
        .peers()
        .filter((id) => !this.gone.has(id))
        .map((id) => this.give(id, key)),
    );
    if (this.switchTimer) clearTimeout(this.switchTimer);
    this.switchTimer = setTimeout(() => {
      this.switchTimer = null;
      void this.install(key).then(() => {
        // A later rotation may have started meanwhile: only the newest becomes current.
        if (this.next === key) this.next = null;
        if (!this.current || key.generation > this.current.generation) this.current = key;
      });
    }, SWITCH_DELAY_MS);
  }

  private make(): SenderKey {
    return generateSenderKey(this.generations++);
  }

  private async install(key: SenderKey): Promise<void> {
    await Promise.all(
      SLOTS.map(async (slot) =>
        this.ctx.frames.setSendKey(SFU_SEND, slot, `${SFU_SEND} ${key.generation} ${slot}`, senderKid(key.generation), await senderMediaBaseKey(key.key, slot)),
      ),
    );
  }

  private async give(peerId: string, key: SenderKey): Promise<void> {
    const box = await this.ctx.seal(peerId, key);
    if (box && !this.gone.has(peerId)) this.ctx.send(peerId, { senderKey: { generation: key.generation, box } });
  }
}
