// One participant's side of a meeting: the signaling stream, a PeerLink per other participant
// (full mesh), the local tracks, and the state the call screen renders. React reads it
// through subscribe()/getState() (useSyncExternalStore); every change makes a new state object.
import type { Bytes } from '@/lib/meeting/e2ee/bytes';
import type { IceAnswer, JoinAnswer, Participant, ServerEvent } from '@/lib/meeting/protocol';
import { MeetingCrypto, type PeerCryptoStats, type PreparedKeys } from './e2ee';
import type { FrameSample } from './e2ee-worker-protocol';
import type { FramePath } from './frame-backends';
import { KeyExchange, type EncryptionState, type PeerKeyState } from './key-exchange';
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
  keys: PeerKeyState;
}

export type { EncryptionState };

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
  /** How frames reach the encryption worker (frame-backends.ts): encoded streams or script transforms. */
  framePath: FramePath;
  /** The room makes newcomers wait to be let in: then the key goes only to those the host lets in. */
  askToJoin: boolean;
  /** From the room password, when the room has one (room-password.ts); never leaves this page. */
  passwordKey?: Bytes | null;
  /** Keys and frame worker the lobby made ahead (MeetingCrypto.prepare); made here otherwise. */
  prepared?: Promise<PreparedKeys>;
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
  private rtcConfig: RTCConfiguration = {};
  private iceReady: Promise<void>;
  private readonly tracks: Record<Slot, MediaStreamTrack | null>;
  /** Peers whose tile we hide (we told them so). */
  private readonly hidden = new Set<string>();
  /** Which peers show our camera (they say so); absent = shown. */
  private readonly viewers = new Map<string, boolean>();
  private events: Promise<void> = Promise.resolve();
  private readonly keyExchange: KeyExchange;
  private timers: ReturnType<typeof setInterval>[] = [];
  private lastSpeakerChange = 0;
  private chatOpen = false;
  private readonly meetingId: string;
  private readonly token: string;
  private readonly askToJoin: boolean;
  /** Where this page encrypts frames: 'streams' (createEncodedStreams) or 'script' (RTCRtpScriptTransform, in a worker). */
  readonly framePath: FramePath;

  constructor(options: SessionOptions) {
    this.meetingId = options.meetingId;
    this.framePath = options.framePath;
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
      encryption: { status: 'starting', source: null, epoch: 0, password: Boolean(options.passwordKey) },
    };
    this.iceReady = options.join.ice ? Promise.resolve(this.useIce(options.join.ice)) : this.loadIce();
    const keys = MeetingCrypto.create(options.meetingId, options.join.self.id, options.framePath, options.passwordKey ?? null, options.prepared).then(async (made) => {
      if (options.secret) await made.useSecret(options.secret, 'link');
      return made;
    });
    this.keyExchange = new KeyExchange(keys, {
      selfId: options.join.self.id,
      selfIsHost: () => this.state.self.isHost,
      peers: () => this.state.peers,
      gated: () => this.askToJoin || this.state.locked,
      post: (to, envelopes) =>
        this.signaling.send(envelopes.length === 1 ? { type: 'signal', to, envelope: envelopes[0]! } : { type: 'signals', to, envelopes }),
      setPeerKeys: (id, state) => this.updatePeer(id, () => ({ keys: state })),
      encryption: () => this.state.encryption,
      setEncryption: (encryption) => this.update({ encryption }),
      onVerified: async (id) => {
        await this.iceReady;
        // In each pair the smaller id makes the offer.
        if (this.state.self.id < id && !this.links.has(id)) this.createLink(id, true);
      },
      onSignal: async (from, body) => {
        const link = this.links.get(from) ?? this.createLink(from, false);
        await link.handleSignal(body as SignalPayload);
        // The answering side has senders only after the first offer: apply the budget now.
        if ('description' in body && body.description.type === 'offer') this.applyEncodings();
      },
      onTampered: (id) => this.refuse(id),
    });
    this.signaling = new SignalingClient({
      meetingId: options.meetingId,
      token: options.join.token,
      // One event at a time, in stream order: a peer's offer is handled after its "join".
      onEvent: (event) => this.inOrder(() => this.onServerEvent(event)),
      onStatus: (signaling) => this.update({ signaling }),
      // After the events already received: a "removed" still in the queue says why the server
      // now refuses the stream, better than a bare refusal.
      onRejected: () =>
        this.inOrder(async () => {
          if (this.state.phase !== 'removed' && this.state.phase !== 'denied') this.end('rejected');
        }),
    });
  }

  /** Runs `step` after every server event received before it. */
  private inOrder(step: () => Promise<void>) {
    this.events = this.events.then(step).catch((error) => console.warn('event', error));
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
    if (action === 'admit') this.keyExchange.letIn(target);
    const status = await this.signaling.send({ type: 'host', action, target });
    if (action === 'admit' && status !== 200) this.keyExchange.letIn(target, false);
    if (action === 'remove' && status === 200) await this.rekey(target);
    return status;
  }

  /**
   * E2EE.md "Kick": after the server refused the removed participant, everyone else moves to a
   * fresh secret and epoch, sent over the data channels (DTLS to the fingerprint each one signed),
   * so the removed participant's keys open nothing sent from now on.
   */
  private async rekey(removed: string) {
    this.links.get(removed)?.close();
    this.links.delete(removed);
    const next = await this.keyExchange.nextEpoch();
    if (!next) return;
    for (const [id, link] of this.links) if (id !== removed && this.keys?.isVerified(id)) link.send({ t: 'rekey', ...next });
  }

  private get keys(): MeetingCrypto | null {
    return this.keyExchange.keys;
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
  withholdKeys(withhold: boolean): Promise<void> {
    return this.keys?.frames.withhold(withhold) ?? Promise.resolve();
  }

  /** "#k=…": the meeting link's fragment that carries the key; the server never sees it. */
  keyFragment(): string | null {
    return this.keys?.linkFragment() ?? null;
  }

  /** Tests: the next `count` frames our senders encrypt, as (clear, sealed) byte pairs after the clear prefix. */
  sampleFrames(count: number): Promise<FrameSample[]> {
    return this.keys?.frames.sampleFrames(count) ?? Promise.resolve([]);
  }

  /** Offers per connection, so tests can prove that screen sharing needs no renegotiation. */
  negotiations(): Record<string, number> {
    return Object.fromEntries([...this.links.entries()].map(([id, link]) => [id, link.negotiations]));
  }

  // ---- internals ----

  private useIce(ice: IceAnswer) {
    this.rtcConfig = { iceServers: ice.iceServers, iceTransportPolicy: ice.iceTransportPolicy };
  }

  private async loadIce() {
    try {
      const response = await fetch(`/api/meeting/${encodeURIComponent(this.meetingId)}/ice`, {
        headers: { authorization: `Bearer ${this.token}` },
        cache: 'no-store',
      });
      if (!response.ok) return;
      this.useIce((await response.json()) as IceAnswer);
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
        await this.keyExchange.receive(event.from, event.envelope);
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
    await this.iceReady;
    for (const participant of others) this.addPeer(participant);
    await this.keyExchange.enter(others.map((p) => p.id));
  }

  /** Someone changed what this peer sent on the way: no connection to them. */
  private refuse(peerId: string) {
    this.links.get(peerId)?.close();
    this.links.delete(peerId);
    this.updatePeer(peerId, () => ({ keys: 'tampered', connection: 'failed' }));
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
    void this.keyExchange.release(participant.id);
  }

  private removePeer(id: string) {
    this.links.get(id)?.close();
    this.links.delete(id);
    this.keyExchange.forget(id);
    this.hidden.delete(id);
    this.viewers.delete(id);
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
      sendSignal: (payload) => this.keyExchange.sendSignal(remoteId, payload),
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
        if (peer.isHost) void this.keyExchange.acceptRekey(message.epoch, message.secret);
        break;
    }
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
