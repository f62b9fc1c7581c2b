// The data channels of this page's SFU connections (sfu-media.ts), for the call's messages
// (sfu-data.ts): ours on the publishing connection, made before the offer so that it has a data
// section, and one of our own on the subscription, made once Janus's offer has data, because
// Janus relays its publishers' messages to a subscriber only once that subscriber opened a channel
// of its own (its "dataready"). Janus relays each publisher's messages on a channel labelled with
// the publisher's id; whose a message is, the message itself proves (e2ee/sender-data.ts). And the
// departures: publishers we stop subscribing to are told goodbye before the subscription goes.
import type { Bytes } from '@/lib/meeting/e2ee/bytes';

/** What the call's messages hear of the channels: bytes that came, the publishers whose messages reach us now, one that left. */
export interface ChannelListener {
  receive(bytes: Bytes): void;
  opened(participantIds: string[]): void;
}

/** What a data channel takes here at most, as the links (links/peer.ts). */
const MAX_DATA_BYTES = 96 * 1024;

export class SfuChannels {
  private out: RTCDataChannel | null = null;
  private in: RTCDataChannel | null = null;
  /** The publishers whose messages reach us: in the subscription, with our channel on it open. */
  private readonly hearing = new Set<string>();

  constructor(
    private readonly listener: ChannelListener | undefined,
    /** The publishers in our subscription that we mean to keep (not draining, not told goodbye). */
    private readonly subscribed: () => string[],
  ) {}

  /** On the publishing connection, before its offer. */
  publish(pc: RTCPeerConnection) {
    this.out = pc.createDataChannel('enclave', { ordered: true });
    this.out.binaryType = 'arraybuffer';
  }

  send(bytes: Bytes): boolean {
    if (this.out?.readyState !== 'open') return false;
    try {
      this.out.send(bytes);
      return true;
    } catch {
      return false;
    }
  }

  /** The receiving connection: every channel Janus opens on it brings messages. */
  receiving(pc: RTCPeerConnection) {
    pc.ondatachannel = ({ channel }) => this.take(channel);
  }

  /** After Janus's offer is applied: our own channel, the first time the offer has data. */
  described(pc: RTCPeerConnection, sdp: string) {
    if (this.in || !/^m=application /m.test(sdp)) return;
    this.in = pc.createDataChannel('enclave-in', { ordered: true });
    this.take(this.in);
    this.in.onopen = () => this.heardNow();
  }

  /** The publishers newly in an open subscription: their messages reach us, so we greet them (sfu-data.ts). */
  heardNow() {
    if (this.in?.readyState !== 'open') return;
    const fresh = this.subscribed().filter((id) => !this.hearing.has(id));
    for (const id of fresh) this.hearing.add(id);
    if (fresh.length > 0) this.listener?.opened(fresh);
  }

  /** This publisher's messages no longer reach us (unsubscribed, left, or told goodbye). */
  forget(participantId: string) {
    this.hearing.delete(participantId);
  }

  private take(channel: RTCDataChannel) {
    channel.binaryType = 'arraybuffer';
    channel.onmessage = ({ data }) => {
      if (data instanceof ArrayBuffer && data.byteLength <= MAX_DATA_BYTES) this.listener?.receive(new Uint8Array(data));
    };
  }
}

/** What a departure does to the subscription (sfu-media.ts). */
export interface DepartureSteps {
  /** Janus stops (or starts again) forwarding these publishers' media; their messages go on. */
  pause(participantIds: string[], send: boolean): void;
  bye(participantIds: string[]): void;
  unsubscribe(participantIds: string[]): void;
  /** Still ours once the drain is over (back in our breakout room meanwhile): subscribed, and not left. */
  kept(participantId: string): boolean;
  /** Those kept: their media again, and a new greeting (they heard our bye). */
  rejoined(participantIds: string[]): void;
  closed(): boolean;
}

/**
 * Publishers we stop subscribing to (another breakout room's; docs/meetings.md "Messages through
 * the SFU"): their media stops at once, each is told goodbye, and the subscription goes DRAIN_MS
 * later, so their messages sent before they heard the bye still arrive.
 */
export class Departures {
  private readonly leaving = new Set<string>();

  constructor(
    private readonly steps: DepartureSteps,
    private readonly drainMs: number,
  ) {}

  has(participantId: string): boolean {
    return this.leaving.has(participantId);
  }

  leave(participantIds: string[]) {
    const fresh = participantIds.filter((id) => !this.leaving.has(id));
    if (fresh.length === 0) return;
    for (const id of fresh) this.leaving.add(id);
    this.steps.pause(fresh, false);
    this.steps.bye(fresh);
    setTimeout(() => {
      for (const id of fresh) this.leaving.delete(id);
      if (this.steps.closed()) return;
      const kept = fresh.filter((id) => this.steps.kept(id));
      if (kept.length > 0) this.steps.rejoined(kept);
      const gone = fresh.filter((id) => !kept.includes(id));
      if (gone.length > 0) this.steps.unsubscribe(gone);
    }, this.drainMs);
  }
}
