// A meeting of KeyExchanges between real MeetingCrypto instances in Node, for the
// meeting-key-exchange*.test.ts files: the envelopes one participant posts are handed to the
// other's receive(), as the signaling server would relay them. Only the frame worker and the DTLS
// certificate stand in (frames never flow here; the fingerprint is a string).
import { MeetingCrypto, type PreparedKeys } from '@/lib/meeting/client/keys/meeting-crypto';
import type { FrameBackend } from '@/lib/meeting/client/frames/frame-backends';
import { KeyExchange } from '@/lib/meeting/client/keys/key-exchange';
import type { EncryptionState, PeerKeyState } from '@/lib/meeting/client/keys/key-state';
import type { Bytes } from '@/lib/meeting/e2ee/bytes';
import { exportPublicKey, generateEcdhKeyPair, secretFromFragment } from '@/lib/meeting/e2ee/keys';
import { exportSigningPublicKey, generateSigningKeyPair } from '@/lib/meeting/e2ee/signing';
import { createHandoffRequest } from '@/lib/meeting/e2ee/handoff';
import type { SignalBody } from '@/lib/meeting/client/keys/envelope';

export const MEETING = 'meeting-1';

export const noFrames: FrameBackend = {
  rtcConfig: {},
  attachSender: () => undefined,
  attachReceiver: () => undefined,
  setSendKey: async () => undefined,
  setReceiveKey: async () => undefined,
  setReceiveChain: async () => undefined,
  dropReceiveKey: async () => undefined,
  setFrameSigner: async () => undefined,
  setFrameVerifier: async () => undefined,
  route: async () => undefined,
  withhold: async () => undefined,
  stats: async () => ({}),
  sampleFrames: async () => [],
};

export function fingerprintOf(id: string) {
  const bytes = [...new TextEncoder().encode(id.padEnd(32, '.'))].slice(0, 32);
  return `sha-256 ${bytes.map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join(':')}`;
}

export async function prepared(id: string): Promise<PreparedKeys> {
  const [ecdh, signing] = await Promise.all([generateEcdhKeyPair(), generateSigningKeyPair()]);
  return {
    frames: noFrames,
    certificate: {} as RTCCertificate,
    fingerprint: fingerprintOf(id),
    ecdh,
    ecdhPublic: await exportPublicKey(ecdh.publicKey),
    signing,
    signingPublic: await exportSigningPublicKey(signing.publicKey),
    handoff: await createHandoffRequest(),
  };
}

/** Rewrites an envelope on its way (a hostile relay), or passes it on. */
export type Relay = (from: string, to: string, envelope: string) => string;

/** A meeting of participants whose key exchanges talk through an in-process relay. */
export class Room {
  readonly people = new Map<string, Person>();
  relay: Relay = (_from, _to, envelope) => envelope;
  /** How long an announcement after a handoff waits for a description (short here: settle() outwaits it). */
  constructor(readonly lazyFlushMs = 10) {}
  /** Pages that are gone (the server has not said so yet): what they send or get is lost. */
  readonly offline = new Set<string>();
  /** Every POST, as the kinds of the envelopes it carried ("hello", "handoff", …). */
  readonly posts: { from: string; to: string; kinds: string[] }[] = [];
  /** Every delivery, awaited by settle(). */
  private deliveries: Promise<unknown>[] = [];

  /** `postKey`: the newcomer's join carries its handoff key, which the server's "join" hands to those present. */
  async join(id: string, options: { host?: boolean; secret?: Bytes; gated?: boolean; postKey?: boolean } = {}) {
    const ready = prepared(id);
    const keys = MeetingCrypto.create(MEETING, id, 'streams', null, ready).then(async (made) => {
      if (options.secret) await made.useSecret(options.secret, 'link');
      return made;
    });
    const person = new Person(this, id, options.host ?? false, options.gated ?? false, keys, options.postKey ?? false);
    const keyRequest = options.postKey ? MeetingCrypto.keyRequest(await ready) : null;
    // Everyone already here learns of the newcomer (the server's "join"), and the newcomer of them.
    for (const other of this.people.values()) {
      other.known.set(id, { id, isHost: person.isHost, keys: 'pending' });
      person.known.set(other.id, { id: other.id, isHost: other.isHost, keys: 'pending' });
      other.exchange.release(id);
      // As machine.ts does with a "join" that carries a key request.
      if (keyRequest) void other.exchange.receive(id, JSON.stringify({ k: 'handoff-request', key: keyRequest }));
    }
    this.people.set(id, person);
    await person.exchange.enter([...person.known.keys()]);
    await this.settle();
    return person;
  }

  deliver(from: string, to: string, envelopes: string[]) {
    const target = this.offline.has(from) || this.offline.has(to) ? undefined : this.people.get(to);
    this.posts.push({ from, to, kinds: envelopes.map((envelope) => (JSON.parse(envelope) as { k: string }).k) });
    if (!target) return Promise.resolve();
    const delivery = (async () => {
      for (const envelope of envelopes) await target.exchange.receive(from, this.relay(from, to, envelope));
    })();
    this.deliveries.push(delivery);
    return delivery;
  }

  /** The server's "leave": everyone forgets the participant. */
  async leave(id: string) {
    this.people.delete(id);
    for (const other of this.people.values()) {
      other.known.delete(id);
      await other.exchange.forget(id);
    }
    await this.settle();
  }

  /** Until nothing is on its way any more, lazy announcements included (quiet for longer than they wait). */
  async settle() {
    let quiet = 0;
    // At least 50 ms quiet: sealing or opening a key can take longer than a lazy wait on a
    // loaded machine, above all in a file's first test (split files start with a cold one).
    const rounds = Math.max(10, Math.ceil(this.lazyFlushMs / 5) + 2);
    for (let round = 0; round < 1000 && quiet < rounds; round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      const pending = this.deliveries.splice(0);
      quiet = pending.length ? 0 : quiet + 1;
      await Promise.all(pending);
    }
  }
}

export class Person {
  readonly known = new Map<string, { id: string; isHost: boolean; keys: PeerKeyState }>();
  encryption: EncryptionState = { status: 'starting', source: null, epoch: 0, password: false };
  readonly verified: string[] = [];
  /** Peers verified that had handed us the key (they offer to us). */
  readonly verifiedHandedOffBy: string[] = [];
  readonly handedOff: string[] = [];
  /** What this page does once it handed the key over (the session opens the link and offers). */
  afterHandoff: (peer: string) => void = () => undefined;
  readonly tampered: string[] = [];
  readonly signals: { from: string; body: SignalBody }[] = [];
  readonly exchange: KeyExchange;

  constructor(
    room: Room,
    readonly id: string,
    readonly isHost: boolean,
    gated: boolean,
    keys: Promise<MeetingCrypto>,
    requestPosted = false,
  ) {
    this.exchange = new KeyExchange(
      keys,
      {
        selfId: id,
        selfIsHost: () => isHost,
        peers: () => [...this.known.values()],
        gated: () => gated,
        post: (to, envelopes) => room.deliver(id, to, envelopes),
        setPeerKeys: (peer, state) => {
          const entry = this.known.get(peer);
          if (entry) entry.keys = state;
        },
        encryption: () => this.encryption,
        setEncryption: (state) => (this.encryption = state),
        onVerified: async (peer, theyHandedOff) => {
          this.verified.push(peer);
          if (theyHandedOff) this.verifiedHandedOffBy.push(peer);
        },
        onHandedOff: async (peer) => {
          this.handedOff.push(peer);
          this.afterHandoff(peer);
        },
        onSignal: async (from, body) => void this.signals.push({ from, body }),
        onTampered: (peer) => void this.tampered.push(peer),
      },
      { requestPosted, lazyFlushMs: room.lazyFlushMs },
    );
  }

  keysOf(peer: string) {
    return this.known.get(peer)?.keys;
  }
}

/** The room secret from a "#k=…" fragment, as a link carries it. */
export const secretOf = (fragment: string) => secretFromFragment(fragment)!;
