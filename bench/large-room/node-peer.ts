// One meeting participant that runs in Node, for the large-room benchmark: it joins through the
// app's real HTTP API as a guest holding the link's key, reads the event stream, runs the app's
// own key exchange (KeyExchange, MeetingCrypto: announcements tagged under the room secret,
// signed and numbered signals, fingerprint checks) and connects to everyone with NodeLink.
// Video off: it sends Opus audio from opus-frames.ts to the peers `sendsTo` allows. With
// media 'sfu' its audio goes once to Janus under its sender key (node-sfu.ts, SenderKeyRing: the
// keys travel as signed signals over the app's signaling, no connection needed), its messages go
// through Janus's data channels with the app's own SfuData (node-messages.ts), and it makes
// connections only to the peers `linksTo` allows at the call's size, as a page keeps data-only links
// through the SFU up to LINKS_UP_TO participants and lets them go by agreement above (node-links.ts).
import type { Bytes } from '@/lib/meeting/e2ee/bytes';
import { exportPublicKey, generateEcdhKeyPair } from '@/lib/meeting/e2ee/keys';
import { exportSigningPublicKey, generateSigningKeyPair } from '@/lib/meeting/e2ee/signing';
import { MeetingCrypto, type PreparedKeys } from '@/lib/meeting/client/keys/meeting-crypto';
import { parseEventStream } from '@/lib/meeting/client/signaling/event-stream';
import { KeyExchange } from '@/lib/meeting/client/keys/key-exchange';
import type { EncryptionState, PeerKeyState } from '@/lib/meeting/client/keys/key-state';
import type { SignalPayload } from '@/lib/meeting/client/links/peer';
import type { JoinAnswer, Participant, ServerEvent, SfuTicket } from '@/lib/meeting/protocol';
import { sealsWith, SenderKeyRing } from '@/lib/meeting/client/sfu/sender-key-ring';
import { LOST_AGAIN_MS } from '@/lib/meeting/client/call/route-decisions';
import { makeCertificate, type NodeCertificate } from './node-certificate';
import { NodeFrames } from './node-frames';
import { keepsLinks } from './crowd-policy';
import type { NodeLink } from './node-link';
import { NodeLinks } from './node-links';
import { NodeMessages } from './node-messages';
import { NodeSfu } from './node-sfu';

export interface NodePeerOptions {
  baseURL: string;
  meetingId: string;
  name: string;
  secret: Bytes;
  /** Where its DTLS certificate goes. */
  dir: string;
  /** Its own X-Forwarded-For, so the join rate limit counts each participant apart (the server trusts loopback proxies). */
  address: string;
  /** Whether it sends audio to this peer (browsers always; other Node peers if the bench asks). */
  sendsTo: (peer: Participant) => boolean;
  /** Whether a failed connection to this peer is made anew. */
  canRelink: (peer: Participant) => boolean;
  /** 'mesh': media over the connections; 'sfu': through the meeting's Janus (default 'mesh'). */
  media?: 'mesh' | 'sfu';
  /** Whether it makes (or answers) a connection to this peer in a call of `participants` (default: everyone). */
  linksTo?: (peer: Participant, participants: number) => boolean;
  /** Through the SFU: whose feeds it subscribes to (default: everyone's). */
  receivesFrom?: (peer: Participant) => boolean;
}

interface RemotePeer extends Participant {
  keys: PeerKeyState;
}

export class NodePeer {
  self: Participant | null = null;
  readonly peers = new Map<string, RemotePeer>();
  /** performance.now() of the join call, and of the first opened audio frame per peer. */
  joinStartedAt = 0;
  /** Its connections to other participants (made once it has joined). */
  private linkSet: NodeLinks | null = null;
  readonly firstAudioAt = new Map<string, number>();
  private token = '';
  private keyExchange: KeyExchange | null = null;
  private readonly frames = new NodeFrames();
  private certificate: NodeCertificate | null = null;
  private encryption: EncryptionState = { status: 'starting', source: null, epoch: 0, password: false };
  private events: Promise<void> = Promise.resolve();
  private readonly abort = new AbortController();
  /** Through the SFU: our sender keys and the media connections to Janus. */
  private ring: SenderKeyRing | null = null;
  sfu: NodeSfu | null = null;
  /** Through the SFU: the call's messages on Janus's data channels. */
  messages: NodeMessages | null = null;
  /** Signaling this participant took part in: envelopes it posted, signals the stream brought it. */
  private signalEnvelopes = 0;
  private signalEvents = 0;
  /** Its event stream: events received and handled (one at a time), and whether it is still open. */
  private readonly stream = { received: 0, handled: 0, open: true, current: '' };

  constructor(private readonly options: NodePeerOptions) {}

  /** Joins and starts reading the stream; resolves once the welcome has been handled. */
  async join(): Promise<void> {
    const { baseURL, meetingId, name, secret, dir, address } = this.options;
    this.certificate = makeCertificate(dir, name.replace(/\W/g, '-'));
    const prepared = this.prepareKeys(this.certificate.fingerprint);
    this.joinStartedAt = performance.now();
    const response = await fetch(`${baseURL}/api/meeting/${meetingId}/join`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address, origin: baseURL },
      body: JSON.stringify({ name }),
    });
    if (!response.ok) throw new Error(`join ${response.status}: ${await response.text()}`);
    const answer = (await response.json()) as JoinAnswer;
    this.token = answer.token;
    this.self = answer.self;
    const keys = MeetingCrypto.create(meetingId, answer.self.id, 'streams', null, prepared).then(async (made) => {
      await made.useSecret(secret, 'link');
      return made;
    });
    this.keyExchange = new KeyExchange(keys, this.context(answer.self.id));
    this.linkSet = this.makeLinks(answer.self.id);
    if (this.options.media === 'sfu') {
      this.ring = this.makeRing(keys);
      this.messages = new NodeMessages({
        selfId: answer.self.id,
        meetingId,
        ring: () => this.ring,
        directKeys: async (peerId) => (await keys).directKeys(peerId),
        onHeard: () => this.linkSet?.prune(),
        onLinkOff: (peerId) => this.linkSet?.offFrom(peerId),
      });
    }
    const welcomed = new Promise<void>((resolve, reject) => void this.readStream(resolve).catch(reject));
    await welcomed;
    if (this.ring) await this.startSfu();
  }

  /** Our sender key to every verified peer, then the SFU: the publisher's frames need the key first. */
  private async startSfu() {
    const response = await fetch(`${this.options.baseURL}/api/meeting/${this.options.meetingId}/sfu`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.token}`, origin: this.options.baseURL },
    });
    if (!response.ok) throw new Error(`sfu ticket ${response.status}: ${await response.text()}`);
    const ticket = (await response.json()) as SfuTicket;
    await this.ring!.start();
    const messages = this.messages!;
    // Ours to send on as soon as its channel opens (sfu-session.ts does the same).
    messages.attach((bytes) => this.sfu?.sendData(bytes) ?? false);
    this.sfu = await NodeSfu.start({
      selfId: this.self!.id,
      ticket,
      frames: this.frames,
      certificate: this.certificate!,
      receivesFrom: (id) => {
        const peer = this.peers.get(id);
        return !!peer && (this.options.receivesFrom?.(peer) ?? true);
      },
      onFirstAudio: (id) => this.firstAudioAt.set(id, performance.now()),
      onLost: () => this.sfuLost(),
      data: { receive: (bytes) => messages.data.receive(bytes), opened: (ids) => messages.data.opened(ids), lost: (id) => messages.data.lost(id) },
    });
  }

  private lostAt: number | null = null;
  /** Sender-key boxes this participant sent (the bench's messages per join and leave). */
  private senderKeyBoxes = 0;

  /**
   * Janus went away: a new ticket at once (the server places the meeting on a healthy node), as
   * the browser's route decisions do (lib/meeting/client/call/route-decisions.ts); a second loss
   * within LOST_AGAIN_MS leaves this participant off the SFU (the bench has no mesh fallback).
   */
  private sfuLost() {
    this.sfu?.close();
    this.sfu = null;
    this.messages?.attach(null);
    const again = this.lostAt !== null && Date.now() - this.lostAt < LOST_AGAIN_MS;
    this.lostAt = Date.now();
    if (!again && !this.abort.signal.aborted)
      void this.startSfu().catch((error: unknown) => console.warn(`${this.self?.name} sfu again:`, (error as Error).message));
  }

  private makeRing(keys: Promise<MeetingCrypto>): SenderKeyRing {
    return new SenderKeyRing({
      frames: this.frames,
      peers: () => [...this.peers.values()].filter((peer) => peer.keys === 'verified').map((peer) => peer.id),
      here: () => [...this.peers.keys()],
      seal: async (peerId, key) => sealsWith(await keys).seal(peerId, key),
      open: async (peerId, generation, box) => sealsWith(await keys).open(peerId, generation, box),
      send: (peerId, body) => {
        this.senderKeyBoxes += 1;
        this.keyExchange!.sendSignal(peerId, body);
      },
    });
  }

  /** Sends one audio frame: once to the SFU, or to every open link it sends to. */
  sendAudio(frame: Bytes, samples: number) {
    if (this.ring) {
      void this.sfu?.sendAudio(frame, samples);
      return;
    }
    for (const [id, link] of this.links) {
      const peer = this.peers.get(id);
      if (peer && this.options.sendsTo(peer)) void link.sendAudio(frame, samples);
    }
  }

  get links(): ReadonlyMap<string, NodeLink> {
    return this.linkSet?.map ?? new Map();
  }

  /** Connected pairs, audio frames opened per peer, what it sent. */
  summary() {
    const links = [...this.links.entries()];
    const sfu = this.sfu;
    return {
      id: this.self?.id ?? '',
      peers: this.peers.size,
      connected: links.filter(([, link]) => link.state === 'connected').length,
      audioFrom: sfu ? [...sfu.opened.keys()] : links.filter(([, link]) => link.audioOpened > 0).map(([id]) => id),
      sentPackets: sfu ? sfu.sentPackets : links.reduce((sum, [, link]) => sum + link.sentPackets, 0),
      sentBytes: sfu ? sfu.sentBytes : links.reduce((sum, [, link]) => sum + link.sentBytes, 0),
      sentStreams: sfu ? (sfu.sentPackets > 0 ? 1 : 0) : links.filter(([, link]) => link.sentPackets > 0).length,
      sfu: sfu && {
        publisher: sfu.publisherState,
        subscriber: sfu.subscriberState,
        receivedBytes: sfu.receivedBytes,
        receivedPackets: sfu.receivedPackets,
        opened: [...sfu.opened.values()].reduce((a, b) => a + b, 0),
      },
      notConnected: [...this.peers.values()]
        .filter((peer) => this.links.get(peer.id)?.state !== 'connected')
        .map((peer) => `${peer.name}:${this.links.get(peer.id)?.history.join('>') ?? 'no link'}${this.links.get(peer.id)?.initiator ? ':offerer' : ''}`),
      relinks: this.linkSet?.relinks ?? 0,
      decryptFailures: Object.values(this.frames.keyring.stats()).reduce(
        (sum, peer) => sum + Object.values(peer.received.failed).reduce((a, b) => a + b, 0),
        0,
      ),
      videoBytes: links.reduce((sum, [, link]) => sum + link.videoBytes, 0),
      senderKeyBoxes: this.senderKeyBoxes,
      rotations: this.ring ? { ...this.ring.rotations } : null,
      wantedLinks: [...this.peers.keys()].filter((id) => this.linksTo(id)).length,
      signalEnvelopes: this.signalEnvelopes,
      signalEvents: this.signalEvents,
      messages: this.messages?.summary() ?? null,
      stream: { ...this.stream },
      keysOf: Object.fromEntries([...this.peers.values()].map((peer) => [peer.name, peer.keys])),
    };
  }

  async leave() {
    await this.post({ type: 'leave' }).catch(() => undefined);
    this.abort.abort();
    this.ring?.stop();
    this.messages?.attach(null);
    this.sfu?.close();
    this.linkSet?.close();
  }

  private async prepareKeys(fingerprint: string): Promise<PreparedKeys> {
    const [ecdh, signing] = await Promise.all([generateEcdhKeyPair(), generateSigningKeyPair()]);
    const [ecdhPublic, signingPublic] = await Promise.all([exportPublicKey(ecdh.publicKey), exportSigningPublicKey(signing.publicKey)]);
    // The certificate object is the browser's; here libdatachannel reads the PEM files instead.
    return { frames: this.frames, certificate: {} as RTCCertificate, fingerprint, ecdh, ecdhPublic, signing, signingPublic };
  }

  private context(selfId: string) {
    return {
      selfId,
      selfIsHost: () => false,
      peers: () => [...this.peers.values()].map((peer) => ({ id: peer.id, isHost: peer.isHost, keys: peer.keys })),
      gated: () => false,
      post: (to: string, envelopes: string[]) => {
        this.signalEnvelopes += envelopes.length;
        return this.post(envelopes.length === 1 ? { type: 'signal', to, envelope: envelopes[0] } : { type: 'signals', to, envelopes });
      },
      setPeerKeys: (id: string, keys: PeerKeyState) => {
        const peer = this.peers.get(id);
        if (peer) peer.keys = keys;
      },
      encryption: () => this.encryption,
      setEncryption: (state: EncryptionState) => (this.encryption = state),
      onVerified: async (id: string) => {
        void this.ring?.peerVerified(id);
        this.sfu?.refresh();
        // A publisher heard before it was verified: greeted again, now that the greeting can be sealed for it (sfu-session.ts).
        if (this.sfu?.subscriptions().includes(id) && !this.messages?.data.hearing().includes(id)) this.messages?.data.opened([id]);
        this.linkSet?.verified(id);
      },
      onSenderKey: async (from: string, generation: number, box: string) => {
        await this.ring?.receive(from, generation, box);
      },
      // Every Node participant has the link's key: nobody is handed it.
      onHandedOff: async () => undefined,
      onSignal: async (from: string, body: SignalPayload) => this.linkSet?.signal(from, body),
      onTampered: (id: string) => console.warn(`${this.options.name}: ${id} tampered`),
    };
  }

  private linksTo(id: string): boolean {
    const peer = this.peers.get(id);
    return !!peer && (this.options.linksTo?.(peer, this.peers.size + 1) ?? true);
  }

  private makeLinks(selfId: string): NodeLinks {
    return new NodeLinks({
      selfId,
      certificate: this.certificate!,
      frames: this.frames,
      sendSignal: (peerId, payload) => this.keyExchange!.sendSignal(peerId, payload),
      onFirstAudio: (peerId) => this.firstAudioAt.set(peerId, performance.now()),
      wanted: (peerId) => this.linksTo(peerId),
      canRelink: (peerId) => {
        const peer = this.peers.get(peerId);
        return !!peer && this.options.canRelink(peer);
      },
      keepsLinks: () => keepsLinks(this.options.media ?? 'mesh', this.peers.size + 1),
      sfu: () => this.messages?.data ?? null,
    });
  }

  private post(message: unknown) {
    return fetch(`${this.options.baseURL}/api/meeting/${this.options.meetingId}/signal`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json', origin: this.options.baseURL },
      body: JSON.stringify(message),
    }).then((response) => response.status);
  }

  private async readStream(welcomed: () => void) {
    const response = await fetch(`${this.options.baseURL}/api/meeting/${this.options.meetingId}/signal`, {
      headers: { authorization: `Bearer ${this.token}`, accept: 'text/event-stream' },
      signal: this.abort.signal,
    });
    if (!response.ok || !response.body) throw new Error(`stream ${response.status}`);
    try {
      for await (const message of parseEventStream(response.body as ReadableStream<Uint8Array>)) {
        if (!message.data) continue;
        const event = JSON.parse(message.data) as ServerEvent;
        this.stream.received += 1;
        // One at a time, in stream order (docs/meetings.md "Signaling").
        this.events = this.events
          .then(() => {
            this.stream.current = `${event.type}${event.type === 'signal' ? ` ${event.envelope.slice(0, 14)}${event.envelope.includes('senderKey') ? ' senderKey' : ''} from ${event.from}` : ''}`;
            return this.onEvent(event);
          })
          .catch((error) => console.warn(`${this.options.name}:`, error))
          .finally(() => (this.stream.handled += 1));
        if (event.type === 'welcome') await this.events.then(welcomed);
      }
    } catch (error) {
      if (!this.abort.signal.aborted) throw error;
    } finally {
      this.stream.open = false;
    }
  }

  private async onEvent(event: ServerEvent) {
    const exchange = this.keyExchange!;
    switch (event.type) {
      case 'welcome': {
        const others = event.participants.filter((p) => p.id !== this.self!.id);
        for (const participant of others) this.peers.set(participant.id, { ...participant, keys: 'pending' });
        await exchange.enter(others.map((p) => p.id));
        return;
      }
      case 'join':
        if (event.participant.id === this.self!.id) return;
        this.peers.set(event.participant.id, { ...event.participant, keys: 'pending' });
        this.linkSet?.prune();
        await exchange.release(event.participant.id);
        return;
      case 'leave':
        this.linkSet?.drop(event.participantId);
        this.peers.delete(event.participantId);
        this.ring?.peerLeft(event.participantId);
        this.messages?.data.lost(event.participantId);
        this.linkSet?.prune();
        // The call may keep its links again (it shrank): one to each verified peer, the smaller id offering (as call/machine.ts).
        for (const peer of this.peers.values()) if (peer.keys === 'verified') this.linkSet?.verified(peer.id);
        void exchange.forget(event.participantId);
        return;
      case 'signal':
        this.signalEvents += 1;
        await exchange.receive(event.from, event.envelope);
        return;
      default:
        return;
    }
  }
}
