/** @jest-environment node */
// KeyExchange between real MeetingCrypto instances in Node: the envelopes one participant posts
// are handed to the other's receive(), as the signaling server would relay them. Only the frame
// worker and the DTLS certificate stand in (frames never flow here; the fingerprint is a string).
import { MeetingCrypto, type PreparedKeys } from '@/lib/meeting/client/keys/meeting-crypto';
import type { FrameBackend } from '@/lib/meeting/client/frames/frame-backends';
import { KeyExchange, type EncryptionState, type PeerKeyState } from '@/lib/meeting/client/keys/key-exchange';
import { randomBytes, type Bytes } from '@/lib/meeting/e2ee/bytes';
import { exportPublicKey, generateEcdhKeyPair, secretFromFragment } from '@/lib/meeting/e2ee/keys';
import { exportSigningPublicKey, generateSigningKeyPair } from '@/lib/meeting/e2ee/signing';
import { createHandoffRequest } from '@/lib/meeting/e2ee/handoff';
import type { SignalBody } from '@/lib/meeting/client/keys/envelope';

const MEETING = 'meeting-1';

const noFrames: FrameBackend = {
  rtcConfig: {},
  attachSender: () => undefined,
  attachReceiver: () => undefined,
  setSendKey: async () => undefined,
  setReceiveKey: async () => undefined,
  withhold: async () => undefined,
  stats: async () => ({}),
  sampleFrames: async () => [],
};

function fingerprintOf(id: string) {
  const bytes = [...new TextEncoder().encode(id.padEnd(32, '.'))].slice(0, 32);
  return `sha-256 ${bytes.map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join(':')}`;
}

async function prepared(id: string): Promise<PreparedKeys> {
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
type Relay = (from: string, to: string, envelope: string) => string;

/** A meeting of participants whose key exchanges talk through an in-process relay. */
class Room {
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
    const rounds = Math.ceil(this.lazyFlushMs / 5) + 2;
    for (let round = 0; round < 1000 && quiet < rounds; round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      const pending = this.deliveries.splice(0);
      quiet = pending.length ? 0 : quiet + 1;
      await Promise.all(pending);
    }
  }
}

class Person {
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
    this.exchange = new KeyExchange(keys, {
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
    }, { requestPosted, lazyFlushMs: room.lazyFlushMs });
  }

  keysOf(peer: string) {
    return this.known.get(peer)?.keys;
  }
}

describe('KeyExchange', () => {
  it('the first one alone makes the secret; a newcomer with the link key is verified both ways', async () => {
    const room = new Room();
    const ada = await room.join('ada', { host: true });
    expect(ada.encryption).toMatchObject({ status: 'on', source: 'created', epoch: 0 });
    const secret = ada.exchange.keys!.linkFragment()!;
    const bob = await room.join('bob', { secret: secretOf(secret) });
    expect(bob.encryption).toMatchObject({ status: 'on', source: 'link' });
    expect([ada.keysOf('bob'), bob.keysOf('ada')]).toEqual(['verified', 'verified']);
    expect([ada.verified, bob.verified]).toEqual([['bob'], ['ada']]);
  });

  it('a newcomer without the key gets it by handoff; both see the same handoff code', async () => {
    const room = new Room();
    const ada = await room.join('ada', { host: true });
    const bob = await room.join('bob');
    expect(bob.encryption).toMatchObject({ status: 'on', source: 'handoff' });
    expect(bob.keysOf('ada')).toBe('verified');
    expect(ada.exchange.keys!.handoffCodes.get('bob')?.digits).toBe(bob.exchange.keys!.handoffCodes.get('ada')?.digits);
  });

  it('a newcomer whose join carried its key: S and the holder\u2019s announcement come in one POST, nothing is asked twice', async () => {
    const room = new Room();
    const ada = await room.join('ada', { host: true });
    const bob = await room.join('bob', { postKey: true });
    expect(bob.encryption).toMatchObject({ status: 'on', source: 'handoff' });
    expect([ada.keysOf('bob'), bob.keysOf('ada')]).toEqual(['verified', 'verified']);
    expect(ada.exchange.keys!.handoffCodes.get('bob')?.digits).toBe(bob.exchange.keys!.handoffCodes.get('ada')?.digits);
    // The holder may start negotiating as soon as the key is on its way.
    expect(ada.handedOff).toEqual(['bob']);
    // bob never asked (the join did); ada answered with the key and her hello together.
    expect(room.posts.filter((post) => post.from === 'bob' && post.kinds.includes('handoff-request'))).toEqual([]);
    expect(room.posts.find((post) => post.from === 'ada')?.kinds).toEqual(['handoff', 'hello']);
  });

  it('after a handoff the newcomer announces itself at once, and its answer follows on its own: the holder verifies it meanwhile', async () => {
    const room = new Room(400);
    const ada = await room.join('ada', { host: true });
    // As the session does: the holder offers as it hands the key over.
    ada.afterHandoff = (peer) => ada.exchange.sendSignal(peer, { description: { type: 'offer', sdp: `v=0\r\na=fingerprint:${fingerprintOf('ada')}\r\n` } });
    const bobJoined = room.join('bob', { postKey: true });
    // The handoff is in; bob answers ada's offer (as PeerLink would) well within the wait.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const bob = room.people.get('bob')!;
    expect(bob.encryption.source).toBe('handoff');
    expect(room.posts.filter((post) => post.from === 'bob').map((post) => post.kinds)).toEqual([['hello']]);
    expect(ada.keysOf('bob')).toBe('verified');
    bob.exchange.sendSignal('ada', { description: { type: 'answer', sdp: `v=0\r\na=fingerprint:${fingerprintOf('bob')}\r\n` } });
    await bobJoined;
    expect(room.posts.filter((post) => post.from === 'bob').map((post) => post.kinds)).toEqual([['hello'], ['signed']]);
    expect(ada.signals.map((signal) => signal.body)).toEqual([{ description: { type: 'answer', sdp: `v=0\r\na=fingerprint:${fingerprintOf('bob')}\r\n` } }]);
  });

  it('the holder\u2019s answer to the newcomer\u2019s announcement waits for its own description, and both go up in one POST', async () => {
    const room = new Room(300);
    const ada = await room.join('ada', { host: true });
    const bobJoined = room.join('bob', { postKey: true });
    // Once bob's announcement is in (it went up after its wait), ada's description follows.
    while (ada.keysOf('bob') !== 'verified') await new Promise((resolve) => setTimeout(resolve, 5));
    ada.exchange.sendSignal('bob', { description: { type: 'offer', sdp: `v=0\r\na=fingerprint:${fingerprintOf('ada')}\r\n` } });
    await bobJoined;
    expect(room.posts.filter((post) => post.from === 'ada').map((post) => post.kinds)).toEqual([['handoff', 'hello'], ['hello', 'signed']]);
  });

  it('the holder offers as it hands the key over: key, announcement and offer reach the newcomer in one POST', async () => {
    const room = new Room(300);
    const ada = await room.join('ada', { host: true });
    const offer = { description: { type: 'offer' as const, sdp: `v=0\r\na=fingerprint:${fingerprintOf('ada')}\r\n` } };
    ada.afterHandoff = (peer) => ada.exchange.sendSignal(peer, offer);
    const bob = await room.join('bob', { postKey: true });
    expect(room.posts.filter((post) => post.from === 'ada')[0]?.kinds).toEqual(['handoff', 'hello', 'signed']);
    // bob applies the offer (it verified ada first) and knows ada offers: it makes no offer of its own.
    expect(bob.signals).toEqual([{ from: 'ada', body: offer }]);
    expect(new Set(bob.verifiedHandedOffBy)).toEqual(new Set(['ada']));
    expect(ada.verifiedHandedOffBy).toEqual([]);
  });

  it('the holder makes its link while the key is being sealed, and the key still goes up ahead of the offer', async () => {
    const room = new Room(300);
    const ada = await room.join('ada', { host: true });
    // The sealing is held until the link was made.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const original = MeetingCrypto.prototype.answerHandoff;
    const sealing = jest.spyOn(MeetingCrypto.prototype, 'answerHandoff').mockImplementationOnce(async function (this: MeetingCrypto, ...args) {
      await held;
      return original.apply(this, args);
    });
    const offer = { description: { type: 'offer' as const, sdp: `v=0\r\na=fingerprint:${fingerprintOf('ada')}\r\n` } };
    let sealedWhenLinked: boolean | null = null;
    ada.afterHandoff = (peer) => {
      sealedWhenLinked = room.posts.some((post) => post.from === 'ada' && post.kinds.includes('handoff'));
      ada.exchange.sendSignal(peer, offer);
    };
    const joining = room.join('bob', { postKey: true });
    // Until ada has heard bob's request and made her link (key pairs take a while on a busy machine).
    for (let waited = 0; ada.handedOff.length === 0 && waited < 5_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(ada.handedOff).toEqual(['bob']);
    expect(sealedWhenLinked).toBe(false);
    expect(room.posts.filter((post) => post.from === 'ada')).toEqual([]);
    sealing.mockRestore();
    release();
    const bob = await joining;
    await room.settle();
    expect(room.posts.filter((post) => post.from === 'ada')[0]?.kinds).toEqual(['handoff', 'hello', 'signed']);
    expect(bob.signals).toEqual([{ from: 'ada', body: offer }]);
  });

  it('with nothing to follow it, the newcomer\u2019s announcement goes up all the same', async () => {
    const room = new Room(50);
    const ada = await room.join('ada', { host: true });
    await room.join('bob', { postKey: true });
    expect(room.posts.filter((post) => post.from === 'bob').map((post) => post.kinds)).toEqual([['hello']]);
    expect(ada.keysOf('bob')).toBe('verified');
  });

  it('a data-channel cipher waits for the peer to prove the key: verified() resolves only then', async () => {
    const room = new Room();
    const ada = await room.join('ada', { host: true });
    let proved = false;
    const waiting = ada.exchange.verified('bob').then(() => (proved = true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(proved).toBe(false);
    await room.join('bob', { postKey: true });
    await waiting;
    expect(ada.exchange.keys!.isVerified('bob')).toBe(true);
  });

  it('gated: the host hands the key only to someone it let in', async () => {
    const room = new Room();
    const ada = await room.join('ada', { host: true, gated: true });
    const bob = await room.join('bob');
    expect(bob.encryption.status).toBe('waiting-key');
    expect(ada.keysOf('bob')).toBe('pending');

    ada.exchange.letIn('bob');
    await bob.exchange.enter(['ada']);
    await room.settle();
    expect(bob.encryption).toMatchObject({ status: 'on', source: 'handoff' });
    expect(ada.keysOf('bob')).toBe('verified');
  });

  it('gated, with the key in the join: nothing is handed over before the host lets the newcomer in', async () => {
    const room = new Room();
    const ada = await room.join('ada', { host: true, gated: true });
    const bob = await room.join('bob', { postKey: true });
    expect(bob.encryption.status).toBe('waiting-key');
    expect(ada.handedOff).toEqual([]);
    expect(room.posts.filter((post) => post.kinds.includes('handoff'))).toEqual([]);
  });

  it('waiting for the key when the only holder leaves: the one left alone makes it', async () => {
    const room = new Room();
    await room.join('ghost', { host: true });
    room.offline.add('ghost'); // its tab closed; the server says so only after a grace period
    const ada = await room.join('ada', { postKey: true });
    expect(ada.encryption.status).toBe('waiting-key');
    await room.leave('ghost');
    expect(ada.encryption).toMatchObject({ status: 'on', source: 'created' });
  });

  it.each([
    ['the earlier arrival has the smaller id', 'ada', 'bob'],
    ['the later arrival has the smaller id', 'bob', 'ada'],
  ])('two waiting for each other after the holder left (%s): the smaller id makes the key and hands it over', async (_name, first, second) => {
    const room = new Room();
    await room.join('ghost', { host: true });
    room.offline.add('ghost');
    const one = await room.join(first, { postKey: true });
    const two = await room.join(second, { postKey: true });
    expect([one.encryption.status, two.encryption.status]).toEqual(['waiting-key', 'waiting-key']);
    await room.leave('ghost');
    await room.settle();
    const [smaller, larger] = [one, two].sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(smaller!.encryption).toMatchObject({ status: 'on', source: 'created' });
    expect(larger!.encryption).toMatchObject({ status: 'on', source: 'handoff' });
    expect([one.keysOf(two.id), two.keysOf(one.id)]).toEqual(['verified', 'verified']);
  });

  it('a link with another meeting\u2019s key: the peer is a mismatch and our indicator says wrong key', async () => {
    const room = new Room();
    const ada = await room.join('ada', { host: true });
    const eve = await room.join('eve', { secret: randomBytes(32) });
    expect(eve.keysOf('ada')).toBe('mismatch');
    expect(eve.encryption.status).toBe('wrong-key');
    expect(ada.verified).toEqual([]);
  });

  it('signed signals arrive; one changed on the way, or with another fingerprint, refuses the peer', async () => {
    const room = new Room();
    const ada = await room.join('ada', { host: true });
    const bob = await room.join('bob');
    const candidate = { candidate: { candidate: 'candidate:1 1 udp 1 127.0.0.1 9 typ host', sdpMid: '0', sdpMLineIndex: 0 } };
    ada.exchange.sendSignal('bob', candidate);
    await room.settle();
    expect(bob.signals).toEqual([{ from: 'ada', body: candidate }]);

    // The offer's DTLS fingerprint is not the one ada announced: someone sits in the middle.
    ada.exchange.sendSignal('bob', { description: { type: 'offer', sdp: `v=0\r\na=fingerprint:${fingerprintOf('mallory')}\r\n` } });
    await room.settle();
    expect(bob.tampered).toEqual(['ada']);

    // A relay that changes a signed body breaks the signature.
    room.relay = (from, to, envelope) => envelope.replace('127.0.0.1', '10.6.6.6');
    bob.exchange.sendSignal('ada', candidate);
    await room.settle();
    expect(ada.tampered).toEqual(['bob']);
    expect(ada.signals).toEqual([]);
  });

  it('removed during the exchange: what it sent before we knew it is dropped with it', async () => {
    const room = new Room();
    const ada = await room.join('ada', { host: true });
    const secret = secretOf(ada.exchange.keys!.linkFragment()!);
    // Ada has not heard of bob yet: his hello is held.
    const bobKeys = await MeetingCrypto.create(MEETING, 'bob', 'streams', null, prepared('bob'));
    await bobKeys.useSecret(secret, 'link');
    await ada.exchange.receive('bob', JSON.stringify({ k: 'hello', announcement: bobKeys.announcement(), reply: false }));
    expect(ada.verified).toEqual([]);
    // The host removes him before the server's "join" reached us: forgotten, nothing released.
    await ada.exchange.forget('bob');
    ada.known.set('bob', { id: 'bob', isHost: false, keys: 'pending' });
    await ada.exchange.release('bob');
    await room.settle();
    expect(ada.verified).toEqual([]);
    expect(ada.exchange.keys!.isVerified('bob')).toBe(false);
  });

  it('the host rekeys after a removal; the others accept only a later epoch', async () => {
    const room = new Room();
    const ada = await room.join('ada', { host: true });
    const bob = await room.join('bob');
    const next = await ada.exchange.nextEpoch();
    expect(next?.epoch).toBe(1);
    expect(ada.encryption.epoch).toBe(1);
    await bob.exchange.acceptRekey(next!.epoch, next!.secret);
    expect(bob.encryption.epoch).toBe(1);
    await bob.exchange.acceptRekey(1, next!.secret);
    await bob.exchange.acceptRekey(0, next!.secret);
    expect(bob.encryption.epoch).toBe(1);
    expect(bob.exchange.keys!.currentEpoch).toBe(1);
  });
});

/** The room secret from a "#k=…" fragment, as a link carries it. */
const secretOf = (fragment: string) => secretFromFragment(fragment)!;
