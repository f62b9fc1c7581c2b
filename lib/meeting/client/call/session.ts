// One participant's side of a meeting, the shell around the pure machine (machine.ts): it feeds
// in what happens — server events, host and local actions, link and key-exchange outcomes, the
// monitors' readings — and carries out the effects that come back: the signaling stream, a
// PeerLink per other participant (full mesh), the key exchange and the local tracks. React reads
// the state through subscribe()/getState() (useSyncExternalStore).
import { MeetingCrypto } from '../keys/meeting-crypto';
import type { FramePath } from '../frames/frame-backends';
import type { SessionOptions } from './session-options';
import { AUTO } from './route-pin';
import { SfuRoute } from './sfu-route';
import { KeyExchange } from '../keys/key-exchange';
import { initialState, isEnded, step, type Effect, type HostAction, type MachineState, type MeetingEvent, type SessionState } from './machine';
import { startMonitors } from '../links/monitors';
import type { PeerLink } from '../links/peer';
import type { Slot } from '../links/slots';
import { fetchIceConfig, iceConfig } from '../signaling/ice';
import { SignalingClient } from '../signaling/signaling';
import { Mesh } from './mesh';
import { runEffect, type CallParts } from './effects';
import { OWN_ACTIONS, StatePublisher } from './state-publisher';
import type { CallFeatures } from './features';
import { Messaging } from './messaging';
import { LinkPruning } from './link-pruning';
import { keepsLinks } from './route-decisions';
import type { InputSlot } from '../media/track-processor';
import { LocalInputs } from './local-inputs';

export { CHAT_MAX_LENGTH } from './chat';
export type { ChatMessage, EncryptionState, Phase, RemotePeer, SessionState } from './machine';
export type { SessionOptions } from './session-options';

/** How often links are looked at for pruning beyond the events that prompt it (link-pruning.ts). */
const PRUNE_EVERY_MS = 5000;
/** Effects that need the ICE servers or the keys before they run. */
const AFTER_ICE = new Set<Effect['type']>(['keys-enter', 'keys-release', 'open-link']);

export class MeetingSession {
  private machine: MachineState;
  /** React hears of each new state through this (state-publisher.ts). */
  private readonly publisher = new StatePublisher();
  /** One PeerLink per other participant, with this page's tracks (mesh.ts). */
  private readonly mesh: Mesh;
  private readonly signaling: SignalingClient;
  private rtcConfig: RTCConfiguration = {};
  private readonly iceReady: Promise<void>;
  private events: Promise<void> = Promise.resolve();
  private readonly keyExchange: KeyExchange;
  private stopMonitors: (() => void) | null = null;
  /** The join token: the probe hands it to tests that check the server refuses it after a removal. */
  readonly token: string;
  private readonly askToJoin: boolean;
  /** The call's messages, over the links or through the SFU, and the features that send them (messaging.ts). */
  private readonly messaging: Messaging;
  /** Where this page encrypts frames: 'streams' (createEncodedStreams) or 'script' (RTCRtpScriptTransform, in a worker). */
  readonly framePath: FramePath;
  /** Our media peer to peer or through the SFU (sfu-route.ts). */
  private readonly sfu: SfuRoute;
  /** The raw captures and their processors (local-inputs.ts): the links carry the processed tracks. */
  readonly inputs: LocalInputs;
  /** The links a large call through the SFU no longer keeps (link-pruning.ts). */
  private readonly pruning: LinkPruning;
  private pruneTimer: ReturnType<typeof setInterval> | null = null;
  /** What the machine's effects act on (effects.ts). */
  private readonly parts: CallParts;

  constructor(options: SessionOptions) {
    this.framePath = options.framePath;
    this.token = options.join.token;
    this.askToJoin = options.askToJoin;
    this.inputs = new LocalInputs(
      { audio: options.tracks.audio, camera: options.tracks.camera },
      { send: (slot, track) => this.send(slot, track), muted: () => this.state.local.muted, ended: () => isEnded(this.state.phase) },
    );
    this.mesh = new Mesh(
      { ...options.tracks },
      {
        selfId: options.join.self.id,
        participants: () => this.state.peers.length + 1,
        visible: (peerId) => this.machine.viewers[peerId] !== false,
        keys: () => this.keyExchange.keys!,
        rtcConfig: () => this.rtcConfig,
        sendSignal: (peerId, payload) => this.keyExchange.sendSignal(peerId, payload),
        verified: (peerId) => this.keyExchange.verified(peerId),
        dispatch: (event) => this.dispatch(event).then(() => (event.type === 'channel-open' ? this.messaging.channelOpen(event.peerId) : undefined)),
        onMessage: (peerId, raw) => this.messaging.receive(peerId, raw),
        onDataChannel: (peerId, channel) => this.features.channel(peerId, channel),
      },
    );
    this.machine = initialState({
      self: options.join.self,
      local: options.local,
      camera: options.tracks.camera,
      password: Boolean(options.passwordKey),
      pin: options.mediaRoute ?? AUTO,
      linksUpTo: options.linksUpTo,
      serverHasSfu: options.serverHasSfu,
    });
    this.iceReady = options.join.ice
      ? Promise.resolve(this.useIce(iceConfig(options.join.ice)))
      : fetchIceConfig(options.meetingId, this.token).then((ice) => this.useIce(ice));
    this.messaging = new Messaging({
      selfId: options.join.self.id,
      fileLimit: options.join.fileLimitBytes,
      links: () => this.mesh.links,
      openChannel: async (peerId, label) => (await this.mesh.linkFor(peerId))?.openChannel(label) ?? null,
      linkOff: (peerId) => this.pruning.offFrom(peerId),
      state: () => this.state,
      setApart: (apart) => {
        void this.mesh.setApart(apart);
        this.sfu.regroup(apart);
      },
      apart: (peerId) => this.mesh.isApart(peerId),
      sfu: () => this.sfu.side?.data ?? null,
      dispatch: (event) => this.dispatch(event),
    });
    for (const feature of options.features ?? []) this.features.use(feature);
    const keys = MeetingCrypto.create(options.meetingId, options.join.self.id, options.framePath, options.passwordKey ?? null, options.prepared).then(
      async (made) => {
        if (options.secret) await made.useSecret(options.secret, 'link');
        return made;
      },
    );
    this.keyExchange = new KeyExchange(
      keys,
      {
        selfId: options.join.self.id,
        selfIsHost: () => this.state.self.isHost,
        peers: () => this.state.peers,
        gated: () => this.askToJoin || this.state.locked,
        post: (to, envelopes) =>
          this.signaling.send(envelopes.length === 1 ? { type: 'signal', to, envelope: envelopes[0]! } : { type: 'signals', to, envelopes }),
        setPeerKeys: (peerId, keys) => this.dispatch({ type: 'peer-keys', peerId, keys }),
        encryption: () => this.state.encryption,
        setEncryption: (encryption) => this.dispatch({ type: 'encryption', encryption }),
        onVerified: async (peerId, theyHandedOff) => {
          await this.iceReady;
          await this.dispatch({ type: 'peer-verified', peerId, theyHandedOff });
          this.sfu.side?.peerVerified(peerId);
        },
        onHandedOff: async (peerId) => {
          await this.iceReady;
          await this.dispatch({ type: 'peer-handed-off', peerId });
        },
        onSignal: async (from, body) => {
          await this.iceReady;
          await this.dispatch({ type: 'peer-signal', peerId: from });
          this.mesh.applySignal(from, body);
        },
        onTampered: (peerId) => void this.dispatch({ type: 'peer-tampered', peerId }),
        onSenderKey: async (from, generation, box) => void (await this.sfu.receiveSenderKey(from, generation, box)),
      },
      { requestPosted: options.keyRequestPosted },
    );
    this.sfu = new SfuRoute({
      selfId: options.join.self.id,
      participants: () => this.state.peers.length + 1,
      verifiedPeers: () => this.state.peers.map(({ id }) => id).filter((id) => this.keyExchange.keys?.isVerified(id)),
      presentPeers: () => this.state.peers.map(({ id }) => id),
      keys: () => this.keyExchange.keys!,
      rtcConfig: () => this.rtcConfig,
      tracks: () => this.mesh.tracks,
      meetingId: options.meetingId,
      token: options.join.token,
      sendSignal: (peerId, body) => this.keyExchange.sendSignal(peerId, body),
      onRemoteTrack: (peerId, slot, track) => void this.dispatch({ type: 'remote-track', peerId, source: 'sfu', slot, track }),
      setViaSfu: (peers) => {
        this.dispatch({ type: 'via-sfu', peers: [...peers] });
        return this.mesh.setViaSfu(peers);
      },
      showing: (peerId) => !this.machine.hidden.includes(peerId),
      onLost: () => void this.dispatch({ type: 'route', input: { type: 'lost', at: Date.now() } }),
      keySchedule: options.keySchedule,
      messages: this.messaging.sfuMessages((peerId) => this.reachedThroughSfu(peerId)),
    });
    this.pruning = new LinkPruning({
      keepsLinks: () => keepsLinks(this.machine.route, this.state.peers.length + 1),
      links: () => this.mesh.links,
      hearing: () => this.sfu.side?.data.hearing() ?? [],
      send: (peerId, message) => this.messaging.messenger.send(peerId, message),
      close: (peerId) => this.mesh.close(peerId),
      reopen: (peerId) => this.mesh.open(peerId, options.join.self.id < peerId),
    });
    this.signaling = new SignalingClient({
      meetingId: options.meetingId,
      token: options.join.token,
      opened: options.stream,
      // One event at a time, in stream order: a peer's offer is handled after its "join".
      // Each camera's layer through the SFU depends on the number in the call.
      onEvent: (event) =>
        this.inOrder(() =>
          this.dispatch({ type: 'server', event, at: Date.now() }).then(() => {
            void this.sfu.side?.applyLayers();
            this.pruning.prune();
          }),
        ),
      onStatus: (status) => void this.dispatch({ type: 'signaling', status }),
      // After the events already received: a "removed" still in the queue says why the server
      // now refuses the stream, better than a bare refusal.
      onRejected: () => this.inOrder(() => this.dispatch({ type: 'stream-refused' })),
    });
    this.parts = {
      signaling: this.signaling,
      mesh: this.mesh,
      messaging: this.messaging,
      keyExchange: this.keyExchange,
      sfu: this.sfu,
      peers: () => this.state.peers.map(({ id }) => id),
      dispatch: (event) => this.dispatch(event),
      shutdown: () => this.shutdown(),
    };
  }

  /** The data-channel features (features.ts): file transfer and those after it register there, not in this file. */
  get features(): CallFeatures {
    return this.messaging.features;
  }

  private get state(): SessionState {
    return this.machine.view;
  }

  /** Runs `task` after every server event received before it. */
  private inOrder(task: () => Promise<void>) {
    this.events = this.events.then(task).catch((error) => console.warn('event', error));
  }

  /** One event through the machine: its effects start at once; React hears of the new state in the next task, unless the person caused it. */
  private async dispatch(event: MeetingEvent): Promise<void> {
    const before = this.machine.view;
    const result = step(this.machine, event);
    this.machine = result.state;
    if (this.machine.view !== before) this.publisher.publish(OWN_ACTIONS.has(event.type));
    for (const effect of result.effects) {
      if (AFTER_ICE.has(effect.type)) await this.iceReady;
      await runEffect(effect, this.parts);
    }
  }

  // ---- React glue ----
  subscribe = this.publisher.subscribe;
  getState = () => this.state;

  start() {
    this.signaling.start();
    this.stopMonitors = startMonitors({
      links: this.mesh.links,
      sfuAudio: () => this.sfu.side?.audioReceivers(),
      onLevels: (levels) => void this.dispatch({ type: 'levels', levels, now: Date.now() }),
      onQuality: (quality) => void this.dispatch({ type: 'quality', quality }),
    });
    window.addEventListener('online', this.onNetworkChange);
    // Also when a file's channel closed: nothing else says so.
    this.pruneTimer = setInterval(() => this.pruning.prune(), PRUNE_EVERY_MS);
  }

  /** Leaves on purpose: the others are told at once. */
  leave() {
    void this.dispatch({ type: 'leave' });
  }

  // ---- local media ----

  setMuted(muted: boolean) {
    void this.dispatch({ type: 'set-muted', muted });
  }

  /** Camera off stops the capture (the light goes out); on swaps a fresh track into every link. */
  async setCamera(track: MediaStreamTrack | null) {
    await this.inputs.setCamera(track);
    await this.dispatch({ type: 'camera', track });
  }

  async setScreen(track: MediaStreamTrack | null) {
    await this.send('screen', track);
    await this.dispatch({ type: 'screen', track });
  }

  /**
   * Another camera or microphone mid-call: the same senders carry it (replaceTrack, no
   * renegotiation), so their frame-encryption transforms, which belong to the sender, stay; the
   * old capture stops.
   */
  async switchInput(slot: InputSlot, track: MediaStreamTrack) {
    if (slot === 'audio') return this.inputs.switchMicrophone(track);
    // What is sent: stopping an effect's track stops the effect and its camera (background/pipeline.ts).
    const old = this.mesh.tracks.camera;
    await this.setCamera(track);
    if (old !== track) old?.stop();
  }

  private async send(slot: Slot, track: MediaStreamTrack | null) {
    await Promise.all([this.mesh.setTrack(slot, track), this.sfu.side?.setTrack(slot, track)]);
  }

  localTrack(slot: Slot) {
    return this.mesh.tracks[slot];
  }

  setHand(hand: boolean) {
    void this.dispatch({ type: 'hand', hand });
  }

  setRecording(recording: boolean) {
    void this.dispatch({ type: 'recording', recording });
  }

  // ---- messages between participants (data channels) ----

  sendChat(text: string) {
    void this.dispatch({ type: 'send-chat', id: crypto.randomUUID(), text, at: Date.now() });
  }

  react(emoji: string) {
    void this.dispatch({ type: 'react', emoji });
  }

  setChatOpen(open: boolean) {
    void this.dispatch({ type: 'chat-open', open });
  }

  /** Tells a peer whether we show their camera, so a hidden tile costs them nothing. */
  setPeerVisible(peerId: string, visible: boolean) {
    void this.dispatch({ type: 'peer-visible', peerId, visible }).then(() => this.sfu.side?.applyLayers());
  }

  // ---- host ----

  async hostAction(action: HostAction, target: string) {
    await this.dispatch({ type: 'host-action', action, target });
    const status = await this.signaling.send({ type: 'host', action, target });
    await this.dispatch({ type: 'host-action-done', action, target, status });
    return status;
  }

  /** Shown at once; the server's "locked" event confirms it (or puts it back if refused). */
  async setLocked(locked: boolean) {
    const previous = this.state.locked;
    await this.dispatch({ type: 'lock', locked });
    const status = await this.signaling.send({ type: 'host', action: locked ? 'lock' : 'unlock' });
    await this.dispatch({ type: 'lock-done', locked, previous, status });
    return status;
  }

  dismissHostNotice() {
    void this.dispatch({ type: 'dismiss-notice' });
  }

  // ---- encryption, for the indicator and the link ----

  /** The code to compare with a peer's screen (docs/e2ee-crypto.md "Safety code"). */
  safetyCode(peerId: string) {
    return this.keyExchange.keys?.safetyCode(peerId) ?? Promise.resolve(null);
  }

  /** The code of a key handover with this peer (either way), if there was one. */
  handoffCode(peerId: string) {
    return this.keyExchange.keys?.handoffCodes.get(peerId) ?? null;
  }

  /** For the test probe (probe.ts) only: the connections and the keys, read-only. */
  inspect(): { links: ReadonlyMap<string, PeerLink>; keys: MeetingCrypto | null; sfu: SfuRoute } {
    return { links: this.mesh.links, keys: this.keyExchange.keys, sfu: this.sfu };
  }

  // ---- internals ----

  /** Without servers (none known), host candidates still work on a LAN and on loopback. */
  private useIce(ice: RTCConfiguration | null) {
    if (ice) this.rtcConfig = ice;
  }

  private onNetworkChange = () => void this.dispatch({ type: 'network-online' });

  /**
   * A peer and we hear each other through the SFU: without a link's channel, that is when it can
   * first be told our state and what the features have under way; and its link, if any, may go.
   */
  private reachedThroughSfu(peerId: string) {
    if (this.mesh.links.get(peerId)?.channel.readyState !== 'open')
      void this.dispatch({ type: 'channel-open', peerId }).then(() => this.messaging.channelOpen(peerId));
    this.pruning.prune();
  }

  private shutdown() {
    this.signaling.close();
    this.features.close();
    this.mesh.closeAll();
    this.sfu.close();
    this.pruning.close();
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    this.stopMonitors?.();
    this.stopMonitors = null;
    window.removeEventListener('online', this.onNetworkChange);
    this.mesh.stopTracks();
    this.inputs.stopAll();
  }
}
