// One participant's side of a meeting: the signaling stream, a PeerLink per other participant
// (full mesh), the local tracks, and the state the call screen renders. React reads it
// through subscribe()/getState() (useSyncExternalStore); every change makes a new state object.
import { base64urlDecode, type Bytes } from '@/lib/meeting/e2ee/bytes';
import type { JsonValue, SignedSignal } from '@/lib/meeting/e2ee/signing';
import type { IceAnswer, JoinAnswer, Participant, ServerEvent } from '@/lib/meeting/protocol';
import { MeetingCrypto, type PeerCryptoStats, type SecretSource } from './e2ee';
import { parseEnvelope, parseSignalBody, type Envelope } from './envelope';
import type { FramePath } from './frame-backends';
import { PeerLink, SLOTS, type SignalPayload, type Slot } from './peer';
import { cameraEncoding, screenEncoding } from './quality';
import { SignalingClient, type SignalingStatus } from './signaling';
import { readLinkStats, type LinkStats, type Quality } from './stats';
import { parsePeerMessage, type MediaState, type PeerMessage } from './peer-messages';

export type Phase = 'connecting' | 'waiting' | 'in-call' | 'denied' | 'removed' | 'rejected' | 'left';

export interface RemotePeer extends Participant {
  connection: RTCPeerConnectionState;
  tracks: Partial<Record<Slot, MediaStreamTrack>>;
  media: MediaState;
  quality: Quality;
  /** Relative loudness 0..1 from the audio receiver, for the active-speaker highlight. */
  level: number;
  /**
   * Their announcement verified under our room secret (E2EE.md): only then is a connection made.
   * "mismatch": they hold another secret; "tampered": their SDP's fingerprint was not the signed one.
   */
  keys: 'pending' | 'verified' | 'mismatch' | 'tampered';
}

/**
 * The encryption indicator (E2EE.md "Safety code"): starting, waiting for a participant to hand
 * over the key, on, or refused because our link's key is not this meeting's.
 */
export interface EncryptionState {
  status: 'starting' | 'waiting-key' | 'on' | 'wrong-key';
  source: SecretSource | null;
  /** Raised by every removal: the removed participant's keys open nothing sent after it. */
  epoch: number;
}

export interface ChatMessage {
  id: string;
  from: string;
  name: string;
  text: string;
  at: number;
}

export interface Reaction {
  id: string;
  from: string;
  name: string;
  emoji: string;
}

export interface SessionState {
  phase: Phase;
  signaling: SignalingStatus;
  self: Participant;
  peers: RemotePeer[];
  knocks: Participant[];
  locked: boolean;
  local: MediaState;
  /** Our own camera and screen, for our tiles. */
  localCamera: MediaStreamTrack | null;
  localScreen: MediaStreamTrack | null;
  chat: ChatMessage[];
  unreadChat: number;
  reactions: Reaction[];
  activeSpeaker: string | null;
  /** What the host did to us, for a one-time notice. */
  hostNotice: { kind: 'muted' | 'unmute-request'; at: number } | null;
  encryption: EncryptionState;
}

export interface SessionOptions {
  meetingId: string;
  join: JoinAnswer;
  tracks: Record<Slot, MediaStreamTrack | null>;
  local: MediaState;
  /** The room secret from the link's #k, if it had one. */
  secret: Bytes | null;
  /** Where frames are encrypted (frame-backends.ts): on the page, or in a worker. */
  framePath: FramePath;
  /** The room makes newcomers wait to be let in: then the key goes only to those the host lets in. */
  askToJoin: boolean;
}

export const CHAT_MAX_LENGTH = 2000;
const REACTION_MS = 4000;
const SPEAKER_POLL_MS = 250;
const STATS_POLL_MS = 2000;

export class MeetingSession {
  private state: SessionState;
  private readonly listeners = new Set<() => void>();
  private readonly links = new Map<string, PeerLink>();
  private readonly signaling: SignalingClient;
  private readonly sendQueues = new Map<string, Promise<unknown>>();
  private rtcConfig: RTCConfiguration = {};
  private iceReady: Promise<void>;
  private readonly tracks: Record<Slot, MediaStreamTrack | null>;
  /** Peers whose tile we hide (we told them so). */
  private readonly hidden = new Set<string>();
  /** Which peers show our camera (they say so); absent = shown. */
  private readonly viewers = new Map<string, boolean>();
  private events: Promise<void> = Promise.resolve();
  /** Envelopes from participants we have not been told about, or whose keys we cannot check yet. */
  private readonly early = new Map<string, string[]>();
  private readonly crypto: Promise<MeetingCrypto>;
  /** Set once the keys exist: links are made only after that. */
  private keys: MeetingCrypto | null = null;
  private timers: ReturnType<typeof setInterval>[] = [];
  private lastSpeakerChange = 0;
  private chatOpen = false;
  private readonly meetingId: string;
  private readonly token: string;
  private readonly askToJoin: boolean;
  /** Participants this browser's host let in from the lobby: the only ones it hands the key to in a gated meeting. */
  private readonly admittedHere = new Set<string>();

  constructor(options: SessionOptions) {
    this.meetingId = options.meetingId;
    this.token = options.join.token;
    this.askToJoin = options.askToJoin;
    this.tracks = { ...options.tracks };
    this.state = {
      phase: 'connecting',
      signaling: 'connecting',
      self: options.join.self,
      peers: [],
      knocks: [],
      locked: false,
      local: options.local,
      localCamera: options.tracks.camera,
      localScreen: null,
      chat: [],
      unreadChat: 0,
      reactions: [],
      activeSpeaker: null,
      hostNotice: null,
      encryption: { status: 'starting', source: null, epoch: 0 },
    };
    this.iceReady = this.loadIce();
    this.crypto = MeetingCrypto.create(options.meetingId, options.join.self.id, options.framePath).then(async (keys) => {
      if (options.secret) await keys.useSecret(options.secret, 'link');
      this.keys = keys;
      return keys;
    });
    this.signaling = new SignalingClient({
      meetingId: options.meetingId,
      token: options.join.token,
      // One event at a time, in stream order: a peer's offer is handled after its "join".
      onEvent: (event) => {
        this.events = this.events.then(() => this.onServerEvent(event)).catch((error) => console.warn('event', error));
      },
      onStatus: (signaling) => this.update({ signaling }),
      onRejected: () => {
        if (this.state.phase !== 'removed' && this.state.phase !== 'denied') this.end('rejected');
      },
    });
  }

  // ---- React glue ----
  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  getState = () => this.state;

  start() {
    this.signaling.start();
    this.timers.push(setInterval(() => this.pollSpeakers(), SPEAKER_POLL_MS));
    this.timers.push(setInterval(() => void this.pollQuality(), STATS_POLL_MS));
    window.addEventListener('online', this.onNetworkChange);
  }

  /** Leaves on purpose: the others are told at once. */
  leave() {
    if (this.state.phase === 'left') return;
    void this.signaling.send({ type: 'leave' });
    this.end('left');
  }

  // ---- local media ----

  setMuted(muted: boolean) {
    if (this.tracks.audio) this.tracks.audio.enabled = !muted;
    this.updateLocal({ muted });
  }

  /** Camera off stops the capture (the light goes out); on swaps a fresh track into every link. */
  async setCamera(track: MediaStreamTrack | null) {
    this.tracks.camera = track;
    await Promise.all([...this.links.values()].map((link) => link.setTrack('camera', track)));
    this.applyEncodings();
    this.update({ localCamera: track });
    this.updateLocal({ cameraOff: !track });
  }

  async setScreen(track: MediaStreamTrack | null) {
    this.tracks.screen = track;
    await Promise.all([...this.links.values()].map((link) => link.setTrack('screen', track)));
    this.applyEncodings();
    this.update({ localScreen: track });
    this.updateLocal({ sharing: !!track });
  }

  async replaceMicrophone(track: MediaStreamTrack) {
    track.enabled = !this.state.local.muted;
    this.tracks.audio = track;
    await Promise.all([...this.links.values()].map((link) => link.setTrack('audio', track)));
  }

  localTrack(slot: Slot) {
    return this.tracks[slot];
  }

  setHand(hand: boolean) {
    this.updateLocal({ hand });
  }

  setRecording(recording: boolean) {
    this.updateLocal({ recording });
  }

  // ---- messages between participants (data channels) ----

  sendChat(text: string) {
    const trimmed = text.trim().slice(0, CHAT_MAX_LENGTH);
    if (!trimmed) return;
    const message = { t: 'chat' as const, id: crypto.randomUUID(), text: trimmed, at: Date.now() };
    this.broadcast(message);
    this.addChat({ id: message.id, from: this.state.self.id, name: this.state.self.name, text: trimmed, at: message.at });
  }

  react(emoji: string) {
    this.broadcast({ t: 'reaction', emoji });
    this.addReaction(this.state.self.id, this.state.self.name, emoji);
  }

  setChatOpen(open: boolean) {
    this.chatOpen = open;
    if (open && this.state.unreadChat) this.update({ unreadChat: 0 });
  }

  /** Tells a peer whether we show their camera, so a hidden tile costs them nothing. */
  setPeerVisible(peerId: string, visible: boolean) {
    if (visible ? !this.hidden.has(peerId) : this.hidden.has(peerId)) return;
    if (visible) this.hidden.delete(peerId);
    else this.hidden.add(peerId);
    this.links.get(peerId)?.send({ t: 'view', visible });
  }

  // ---- host ----

  async hostAction(action: 'admit' | 'deny' | 'mute' | 'ask-unmute' | 'remove', target: string) {
    if (action === 'admit' || action === 'deny') this.update({ knocks: this.state.knocks.filter((p) => p.id !== target) });
    // Before the request: their handoff request can arrive before our answer from the server.
    if (action === 'admit') this.admittedHere.add(target);
    const status = await this.signaling.send({ type: 'host', action, target });
    if (action === 'admit' && status !== 200) this.admittedHere.delete(target);
    if (action === 'remove' && status === 200) await this.rekey(target);
    return status;
  }

  /**
   * E2EE.md "Kick": after the server refused the removed participant, everyone else moves to a
   * fresh secret and epoch, sent over the data channels (DTLS to the fingerprint each one signed),
   * so the removed participant's keys open nothing sent from now on.
   */
  private async rekey(removed: string) {
    const keys = this.keys;
    if (!keys?.hasSecret) return;
    this.links.get(removed)?.close();
    this.links.delete(removed);
    const { secret, epoch } = await keys.nextEpoch();
    for (const [id, link] of this.links) if (id !== removed && keys.isVerified(id)) link.send({ t: 'rekey', epoch, secret });
    this.update({ encryption: { ...this.state.encryption, epoch } });
  }

  /** Shown at once; the server's "locked" event confirms it (or puts it back if refused). */
  async setLocked(locked: boolean) {
    const before = this.state.locked;
    this.update({ locked });
    const status = await this.signaling.send({ type: 'host', action: locked ? 'lock' : 'unlock' });
    if (status !== 200) this.update({ locked: before });
    return status;
  }

  dismissHostNotice() {
    this.update({ hostNotice: null });
  }

  /** Per-peer counters from getStats(), for diagnostics, tests and the benchmark. */
  async stats(): Promise<Record<string, LinkStats & { connection: RTCPeerConnectionState }>> {
    const entries = await Promise.all(
      [...this.links.entries()].map(async ([id, link]) => {
        const stats = await readLinkStats(link.pc, link.receiver('screen'));
        return [id, { ...stats, connection: link.pc.connectionState }] as const;
      }),
    );
    return Object.fromEntries(entries);
  }

  /** Frames encrypted, decrypted, withheld and refused, per peer (the indicator and the proofs). */
  encryptionStats(): Promise<Record<string, PeerCryptoStats>> {
    return this.keys?.stats() ?? Promise.resolve({});
  }

  /** The code to compare with a peer's screen (E2EE.md "Safety code"). */
  safetyCode(peerId: string) {
    return this.keys?.safetyCode(peerId) ?? Promise.resolve(null);
  }

  /** The code of a key handover with this peer (either way), if there was one. */
  handoffCode(peerId: string) {
    return this.keys?.handoffCodes.get(peerId) ?? null;
  }

  /** Tests of fail-closed sending: withhold every frame key, or give them back. */
  withholdKeys(withhold: boolean) {
    this.keys?.frames.withhold(withhold);
  }

  /** "#k=…": the meeting link's fragment that carries the key; the server never sees it. */
  keyFragment(): string | null {
    return this.keys?.linkFragment() ?? null;
  }

  /** Tests: the next `count` frames our senders encrypt, as (clear, sealed) byte pairs after the clear prefix. */
  sampleFrames(count: number): Promise<{ plain: number[]; sealed: number[] }[]> {
    return new Promise((resolve) => {
      const samples: { plain: number[]; sealed: number[] }[] = [];
      if (!this.keys) return resolve(samples);
      const frames = this.keys.frames;
      frames.tap = {
        take(plain, sealed, prefix) {
          if (samples.length >= count || plain.length - prefix < 64) return;
          samples.push({ plain: [...plain.subarray(prefix, prefix + 1024)], sealed: [...sealed.subarray(prefix, prefix + 1024)] });
          if (samples.length === count) {
            frames.tap = null;
            resolve(samples);
          }
        },
      };
    });
  }

  /** Offers per connection, so tests can prove that screen sharing needs no renegotiation. */
  negotiations(): Record<string, number> {
    return Object.fromEntries([...this.links.entries()].map(([id, link]) => [id, link.negotiations]));
  }

  // ---- internals ----

  private async loadIce() {
    try {
      const response = await fetch(`/api/meeting/${encodeURIComponent(this.meetingId)}/ice`, {
        headers: { authorization: `Bearer ${this.token}` },
        cache: 'no-store',
      });
      if (!response.ok) return;
      const ice = (await response.json()) as IceAnswer;
      this.rtcConfig = { iceServers: ice.iceServers, iceTransportPolicy: ice.iceTransportPolicy };
    } catch {
      // no servers: host candidates still work on a LAN and on loopback
    }
  }

  private async onServerEvent(event: ServerEvent) {
    switch (event.type) {
      case 'welcome':
        await this.enterCall(event.participants, event.locked);
        break;
      case 'admitted':
        await this.enterCall(event.participants, event.locked);
        break;
      case 'waiting':
        this.update({ phase: 'waiting' });
        break;
      case 'denied':
        this.end('denied');
        break;
      case 'removed':
        this.end('removed');
        break;
      case 'join':
        if (event.participant.id !== this.state.self.id) {
          await this.iceReady;
          this.addPeer(event.participant);
        }
        break;
      case 'leave':
        this.removePeer(event.participantId);
        break;
      case 'signal':
        await this.onEnvelope(event.from, event.envelope);
        break;
      case 'knock':
        if (!this.state.knocks.some((p) => p.id === event.participant.id))
          this.update({ knocks: [...this.state.knocks, event.participant] });
        break;
      case 'knock-cancelled':
        this.update({ knocks: this.state.knocks.filter((p) => p.id !== event.participantId) });
        break;
      case 'locked':
        this.update({ locked: event.locked });
        break;
      case 'muted':
        this.setMuted(true);
        this.update({ hostNotice: { kind: 'muted', at: Date.now() } });
        break;
      case 'unmute-request':
        this.update({ hostNotice: { kind: 'unmute-request', at: Date.now() } });
        break;
    }
  }

  /**
   * Who calls whom: in each pair the participant with the smaller id makes the offer, whoever
   * arrived first — so two people joining at the same moment never both offer. Links that
   * survive a reconnect are kept; people who left meanwhile are dropped.
   */
  private async enterCall(participants: Participant[], locked: boolean) {
    const others = participants.filter((p) => p.id !== this.state.self.id);
    const present = new Set(others.map((p) => p.id));
    for (const peer of this.state.peers) if (!present.has(peer.id)) this.removePeer(peer.id);
    this.update({ phase: 'in-call', locked });
    const keys = await this.crypto;
    await this.iceReady;
    for (const participant of others) this.addPeer(participant);
    // E2EE.md "Who gets S": alone and without a key, we make it; otherwise we ask for it.
    if (!keys.hasSecret && others.length === 0) await keys.createSecret();
    if (keys.hasSecret) {
      this.update({ encryption: { status: 'on', source: keys.source, epoch: keys.currentEpoch } });
      for (const participant of others) this.sendHello(participant.id, false);
    } else {
      this.update({ encryption: { status: 'waiting-key', source: null, epoch: 0 } });
      const key = await keys.requestHandoff();
      for (const participant of others) this.sendEnvelope(participant.id, { k: 'handoff-request', key });
    }
  }

  private sendHello(to: string, reply: boolean) {
    const announcement = this.keys?.announcement();
    if (announcement) this.sendEnvelope(to, { k: 'hello', announcement, reply });
  }

  /**
   * A message from another participant, checked before use: announcements against our room
   * secret, everything else against the signing key its announcement gave (E2EE.md).
   */
  private async onEnvelope(from: string, text: string) {
    const keys = this.keys ?? (await this.crypto);
    const envelope = parseEnvelope(text);
    if (!envelope) return;
    const known = this.state.peers.some((p) => p.id === from);
    const mustWait =
      !known || (envelope.k === 'hello' && !keys.hasSecret) || (envelope.k === 'signed' && !keys.isVerified(from));
    if (mustWait) return this.holdEnvelope(from, text);
    await this.handleEnvelope(keys, from, envelope);
  }

  private holdEnvelope(from: string, text: string) {
    const queue = this.early.get(from) ?? [];
    if (queue.length < 200) queue.push(text);
    this.early.set(from, queue);
  }

  /** Envelopes held for a peer, now that they can be checked. */
  private async releaseEnvelopes(from: string) {
    const held = this.early.get(from);
    if (!held?.length) return;
    this.early.delete(from);
    for (const text of held) await this.onEnvelope(from, text);
  }

  private async handleEnvelope(keys: MeetingCrypto, from: string, envelope: Envelope) {
    switch (envelope.k) {
      case 'hello': {
        if (envelope.announcement.id !== from) return;
        const result = await keys.acceptAnnouncement(envelope.announcement);
        // Answered even on a mismatch, so a newcomer with the wrong key learns it at once.
        if (!envelope.reply) this.sendHello(from, true);
        if (result === 'mismatch') {
          this.updatePeer(from, () => ({ keys: 'mismatch' }));
          this.checkWrongKey();
          return;
        }
        this.updatePeer(from, () => ({ keys: 'verified' }));
        this.checkWrongKey();
        await this.iceReady;
        if (this.state.self.id < from && !this.links.has(from)) this.createLink(from, true);
        await this.releaseEnvelopes(from);
        return;
      }
      case 'handoff-request': {
        // E2EE.md "Who gets S": where newcomers wait in the lobby, the key goes only to those this
        // host let in — not to whoever the server says is in (it could let anyone in). The room's
        // host coming back (a reload) gets it too: nobody else could let people in.
        const gated = this.askToJoin || this.state.locked;
        const letInHere = this.state.self.isHost && this.admittedHere.has(from);
        const host = this.state.peers.find((p) => p.id === from)?.isHost ?? false;
        if (gated && !letInHere && !host) return;
        const handoff = await keys.answerHandoff(from, envelope.key);
        if (handoff) this.sendEnvelope(from, { k: 'handoff', ...handoff });
        return;
      }
      case 'handoff': {
        if (keys.hasSecret || !(await keys.acceptHandoff(from, envelope))) return;
        this.update({ encryption: { status: 'on', source: keys.source, epoch: keys.currentEpoch } });
        for (const peer of this.state.peers) {
          this.sendHello(peer.id, false);
          await this.releaseEnvelopes(peer.id);
        }
        return;
      }
      case 'signed':
        return this.onSignedSignal(keys, from, envelope.signal as SignedSignal);
    }
  }

  /** Our link's key is not the meeting's when every participant's announcement fails under it. */
  private checkWrongKey() {
    const peers = this.state.peers;
    const wrong = peers.length > 0 && peers.every((p) => p.keys === 'mismatch');
    const status = wrong ? 'wrong-key' : this.keys?.hasSecret ? 'on' : this.state.encryption.status;
    if (status !== this.state.encryption.status) this.update({ encryption: { ...this.state.encryption, status, source: this.keys?.source ?? null } });
  }

  /** Someone changed what this peer sent on the way: no connection to them. */
  private refuse(peerId: string) {
    this.links.get(peerId)?.close();
    this.links.delete(peerId);
    this.updatePeer(peerId, () => ({ keys: 'tampered', connection: 'failed' }));
  }

  private async onSignedSignal(keys: MeetingCrypto, from: string, signal: SignedSignal) {
    if (signal.from !== from || this.state.peers.find((p) => p.id === from)?.keys === 'tampered') return;
    const opened = await keys.open(signal);
    if (!opened.ok) {
      // A signature that does not verify means the relay changed the message: refuse the peer.
      if (opened.reason === 'signature') this.refuse(from);
      return;
    }
    const body = parseSignalBody(opened.body);
    if (!body) return;
    if ('description' in body) {
      const { description } = body;
      // A relay that swaps the DTLS fingerprint would sit in the middle: refuse the connection.
      if (description.sdp && !keys.fingerprintMatches(from, description.sdp)) return this.refuse(from);
    }
    const link = this.links.get(from) ?? this.createLink(from, false);
    await link.handleSignal(body as SignalPayload);
    // The answering side has senders only after the first offer: apply the budget now.
    if ('description' in body && body.description.type === 'offer') this.applyEncodings();
  }

  private addPeer(participant: Participant) {
    if (this.state.peers.some((p) => p.id === participant.id)) return;
    const peer: RemotePeer = {
      ...participant,
      connection: 'new',
      tracks: {},
      media: { muted: false, cameraOff: false, sharing: false, hand: false, recording: false },
      quality: 'unknown',
      level: 0,
      keys: this.keys?.isVerified(participant.id) ? 'verified' : 'pending',
    };
    this.update({ peers: [...this.state.peers, peer] });
    this.applyEncodings();
    // What they sent before we knew them.
    void this.releaseEnvelopes(participant.id);
  }

  private removePeer(id: string) {
    this.links.get(id)?.close();
    this.links.delete(id);
    this.keys?.forgetPeer(id);
    this.sendQueues.delete(id);
    this.hidden.delete(id);
    this.viewers.delete(id);
    this.early.delete(id);
    this.update({
      peers: this.state.peers.filter((p) => p.id !== id),
      knocks: this.state.knocks.filter((p) => p.id !== id),
      activeSpeaker: this.state.activeSpeaker === id ? null : this.state.activeSpeaker,
    });
    this.applyEncodings();
  }

  private createLink(remoteId: string, initiator: boolean): PeerLink {
    const link = new PeerLink({
      remoteId,
      polite: this.state.self.id > remoteId,
      initiator,
      // Frames are dropped until their transform has a key (fail-closed); DTLS uses the
      // certificate whose fingerprint our announcement carries.
      rtcConfig: { ...this.rtcConfig, ...this.keys!.frames.rtcConfig, certificates: [this.keys!.certificate] },
      tracks: { ...this.tracks },
      sendSignal: (payload) => this.sendSignal(remoteId, payload),
      attachSender: (slot, sender) => this.keys!.attachSender(remoteId, slot, sender),
      attachReceiver: (slot, receiver) => this.keys!.attachReceiver(remoteId, slot, receiver),
      onRemoteTrack: (slot, track) => this.updatePeer(remoteId, (peer) => ({ tracks: { ...peer.tracks, [slot]: track } })),
      onMessage: (raw) => this.onPeerMessage(remoteId, raw),
      cipher: this.keys!.dataCipher(remoteId),
      onChannelOpen: () => {
        link.send({ t: 'state', ...this.state.local });
        if (this.hidden.has(remoteId)) link.send({ t: 'view', visible: false });
      },
      onStateChange: (connection) => this.updatePeer(remoteId, () => ({ connection })),
    });
    this.links.set(remoteId, link);
    this.applyEncodings();
    return link;
  }

  /** A description or candidate for one peer, signed and numbered (E2EE.md "Signaling"). */
  private sendSignal(to: string, payload: SignalPayload) {
    // JSON round trip: the signed bytes must be exactly what the receiver parses.
    const body = JSON.parse(JSON.stringify(payload)) as JsonValue;
    this.enqueueSend(to, async () => {
      const signal = await this.keys!.sign(to, body);
      return JSON.stringify({ k: 'signed', signal } satisfies Envelope);
    });
  }

  private sendEnvelope(to: string, envelope: Envelope) {
    this.enqueueSend(to, async () => JSON.stringify(envelope));
  }

  /** Messages to one peer go up one at a time: an announcement before the offer, the offer before its candidates. */
  private enqueueSend(to: string, make: () => Promise<string>) {
    const previous = this.sendQueues.get(to) ?? Promise.resolve();
    const next = previous.then(async () => this.signaling.send({ type: 'signal', to, envelope: await make() })).catch(() => undefined);
    this.sendQueues.set(to, next);
  }

  private onPeerMessage(from: string, raw: unknown) {
    const message = parsePeerMessage(raw);
    const peer = this.state.peers.find((p) => p.id === from);
    if (!message || !peer) return;
    this.handlePeerMessage(peer, message);
  }

  private handlePeerMessage(peer: RemotePeer, message: PeerMessage) {
    switch (message.t) {
      case 'state': {
        const { t: _type, ...media } = message;
        void _type;
        this.updatePeer(peer.id, () => ({ media }));
        break;
      }
      case 'chat':
        this.addChat({ id: message.id, from: peer.id, name: peer.name, text: message.text, at: message.at });
        break;
      case 'reaction':
        this.addReaction(peer.id, peer.name, message.emoji);
        break;
      case 'view':
        this.viewers.set(peer.id, message.visible);
        this.applyEncodings();
        break;
      case 'rekey':
        // Only a host moves the meeting to a new epoch; a later one than ours.
        if (peer.isHost) void this.acceptRekey(message.epoch, message.secret);
        break;
    }
  }

  private async acceptRekey(epoch: number, encoded: string) {
    const secret = base64urlDecode(encoded);
    if (!secret || !this.keys || !(await this.keys.rotate(secret, epoch))) return;
    this.update({ encryption: { ...this.state.encryption, epoch } });
  }

  private applyEncodings() {
    const participants = this.state.peers.length + 1;
    const height = this.tracks.camera?.getSettings().height ?? 720;
    for (const [id, link] of this.links) {
      void link.setEncoding('camera', cameraEncoding(participants, height, this.viewers.get(id) !== false));
      if (this.tracks.screen) void link.setEncoding('screen', screenEncoding(participants));
    }
  }

  private addChat(message: ChatMessage) {
    if (this.state.chat.some((m) => m.id === message.id)) return;
    const mine = message.from === this.state.self.id;
    this.update({
      chat: [...this.state.chat, message].slice(-500),
      unreadChat: this.chatOpen || mine ? this.state.unreadChat : this.state.unreadChat + 1,
    });
  }

  private addReaction(from: string, name: string, emoji: string) {
    const reaction = { id: crypto.randomUUID(), from, name, emoji };
    this.update({ reactions: [...this.state.reactions, reaction].slice(-20) });
    setTimeout(() => this.update({ reactions: this.state.reactions.filter((r) => r.id !== reaction.id) }), REACTION_MS);
  }

  private updateLocal(change: Partial<MediaState>) {
    const local = { ...this.state.local, ...change };
    this.update({ local });
    this.broadcast({ t: 'state', ...local });
  }

  private broadcast(message: PeerMessage) {
    for (const link of this.links.values()) link.send(message);
  }

  private pollSpeakers() {
    let loudest: string | null = null;
    let loudestLevel = 0.02;
    let changed = false;
    const peers = this.state.peers.map((peer) => {
      const receiver = this.links.get(peer.id)?.receiver('audio');
      const source = receiver?.getSynchronizationSources?.()[0];
      const level = source && performance.timeOrigin + performance.now() - source.timestamp < 1000 ? (source.audioLevel ?? 0) : 0;
      if (!peer.media.muted && level > loudestLevel) {
        loudest = peer.id;
        loudestLevel = level;
      }
      if (Math.abs(level - peer.level) < 0.02) return peer;
      changed = true;
      return { ...peer, level };
    });
    const now = Date.now();
    // The highlight moves only after a short hold, so it does not flicker between two voices.
    const speaker = loudest && loudest !== this.state.activeSpeaker && now - this.lastSpeakerChange > 1200 ? loudest : this.state.activeSpeaker;
    if (speaker !== this.state.activeSpeaker) this.lastSpeakerChange = now;
    if (changed || speaker !== this.state.activeSpeaker) this.update({ peers, activeSpeaker: speaker });
  }

  private async pollQuality() {
    if (!this.links.size) return;
    const stats = await this.stats().catch(() => ({}) as Awaited<ReturnType<MeetingSession['stats']>>);
    const peers = this.state.peers.map((peer) => {
      const quality = stats[peer.id]?.quality;
      return quality && quality !== peer.quality ? { ...peer, quality } : peer;
    });
    if (peers.some((peer, index) => peer !== this.state.peers[index])) this.update({ peers });
  }

  private onNetworkChange = () => {
    for (const link of this.links.values()) link.restartIce();
  };

  private updatePeer(id: string, change: (peer: RemotePeer) => Partial<RemotePeer>) {
    const peers = this.state.peers.map((peer) => (peer.id === id ? { ...peer, ...change(peer) } : peer));
    this.update({ peers });
  }

  private end(phase: Phase) {
    this.signaling.close();
    for (const link of this.links.values()) link.close();
    this.links.clear();
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    window.removeEventListener('online', this.onNetworkChange);
    for (const slot of SLOTS) this.tracks[slot]?.stop();
    this.update({ phase, peers: [], knocks: [] });
  }

  private update(change: Partial<SessionState>) {
    this.state = { ...this.state, ...change };
    for (const listener of this.listeners) listener();
  }
}
