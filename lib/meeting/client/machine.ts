// The meeting as a pure state machine: step(state, event) → { state, effects }. Every server
// event, host action, local action, link and key-exchange outcome comes in as an event; what must
// happen outside (open or close a connection, send on the data channels, hand an envelope to the
// key exchange, stop everything) goes out as plain-data effects that session.ts carries out. No
// DOM, no fetch, no RTCPeerConnection here: tracks are opaque values, ids and times come in with
// the events — so the whole meeting logic is tested in Node (tests/unit/meeting-machine.test.ts).
import type { Participant, ServerEvent } from '@/lib/meeting/protocol';
import { addChat, addReaction, chatText, expireReaction, REACTION_MS, type ChatMessage, type Reaction } from './chat';
import type { EncryptionState, PeerKeyState } from './key-exchange';
import { parsePeerMessage, type MediaState, type PeerMessage } from './peer-messages';
import type { Slot } from './peer';
import type { SignalingStatus } from './signaling';
import type { Quality } from './stats';

export type { ChatMessage, Reaction, EncryptionState };

export type Phase = 'connecting' | 'waiting' | 'in-call' | 'denied' | 'removed' | 'rejected' | 'left';
export type HostAction = 'admit' | 'deny' | 'mute' | 'ask-unmute' | 'remove';

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

/** What the call screen renders (React reads it through useSyncExternalStore). */
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

export interface MachineState {
  view: SessionState;
  /** Peers whose tile we hide (we told them so). */
  hidden: string[];
  /** Which peers show our camera (they say so); absent = shown. */
  viewers: Record<string, boolean>;
  chatOpen: boolean;
  /** When the active-speaker highlight last moved. */
  speakerChangedAt: number;
  /** Numbers reactions, so their ids need no randomness. */
  reactionCount: number;
}

export type MeetingEvent =
  // from the server, and about the stream itself
  | { type: 'server'; event: ServerEvent; at: number }
  | { type: 'stream-refused' }
  | { type: 'signaling'; status: SignalingStatus }
  | { type: 'network-online' }
  // what this participant does
  | { type: 'leave' }
  | { type: 'set-muted'; muted: boolean }
  | { type: 'camera'; track: MediaStreamTrack | null }
  | { type: 'screen'; track: MediaStreamTrack | null }
  | { type: 'hand'; hand: boolean }
  | { type: 'recording'; recording: boolean }
  | { type: 'send-chat'; id: string; text: string; at: number }
  | { type: 'react'; emoji: string }
  | { type: 'reaction-expired'; id: string }
  | { type: 'chat-open'; open: boolean }
  | { type: 'peer-visible'; peerId: string; visible: boolean }
  | { type: 'dismiss-notice' }
  // host actions: asked for, then the server's answer
  | { type: 'host-action'; action: HostAction; target: string }
  | { type: 'host-action-done'; action: HostAction; target: string; status: number }
  | { type: 'lock'; locked: boolean }
  | { type: 'lock-done'; locked: boolean; previous: boolean; status: number }
  // the connections
  | { type: 'peer-message'; from: string; raw: unknown }
  | { type: 'link-state'; peerId: string; connection: RTCPeerConnectionState }
  | { type: 'remote-track'; peerId: string; slot: Slot; track: MediaStreamTrack }
  | { type: 'channel-open'; peerId: string }
  // the key exchange's outcomes
  | { type: 'peer-keys'; peerId: string; keys: PeerKeyState }
  | { type: 'encryption'; encryption: EncryptionState }
  | { type: 'peer-verified'; peerId: string }
  | { type: 'peer-signal'; peerId: string }
  | { type: 'peer-tampered'; peerId: string }
  // the monitors
  | { type: 'levels'; levels: Record<string, number>; now: number }
  | { type: 'quality'; quality: Record<string, Quality> };

export type Effect =
  /** Tell the server we leave on purpose: the others learn it at once. */
  | { type: 'announce-leave' }
  /** Close the stream and every connection, stop the monitors and the local tracks. */
  | { type: 'shutdown' }
  /** Make a connection to this peer unless there is one; the initiator makes the first offer. */
  | { type: 'open-link'; peerId: string; initiator: boolean }
  | { type: 'close-link'; peerId: string }
  | { type: 'broadcast'; message: PeerMessage }
  | { type: 'send-peer'; peerId: string; message: PeerMessage }
  /** The video budget depends on how many are in the call and who shows our camera. */
  | { type: 'apply-encodings' }
  | { type: 'microphone'; enabled: boolean }
  | { type: 'restart-ice' }
  | { type: 'expire-reaction'; id: string; afterMs: number }
  | { type: 'keys-enter'; others: string[] }
  | { type: 'keys-receive'; from: string; envelope: string }
  | { type: 'keys-release'; peerId: string }
  | { type: 'keys-forget'; peerId: string }
  | { type: 'keys-let-in'; peerId: string; confirmed: boolean }
  | { type: 'keys-accept-rekey'; epoch: number; secret: string }
  /** E2EE.md "Kick": a fresh secret and epoch for everyone but the removed participant. */
  | { type: 'rekey'; removed: string };

export interface Step {
  state: MachineState;
  effects: Effect[];
}

const ENDED: readonly Phase[] = ['left', 'removed', 'denied', 'rejected'];
export const isEnded = (phase: Phase) => ENDED.includes(phase);
/** Below this the room is quiet: nobody is highlighted. */
const SPEAKING_LEVEL = 0.02;
/** The highlight moves only after this hold, so it does not flicker between two voices. */
export const SPEAKER_HOLD_MS = 1200;
const NO_MEDIA: MediaState = { muted: false, cameraOff: false, sharing: false, hand: false, recording: false };

export function initialState(options: { self: Participant; local: MediaState; camera: MediaStreamTrack | null; password: boolean }): MachineState {
  return {
    view: {
      phase: 'connecting',
      signaling: 'connecting',
      self: options.self,
      peers: [],
      knocks: [],
      locked: false,
      local: options.local,
      localCamera: options.camera,
      localScreen: null,
      chat: [],
      unreadChat: 0,
      reactions: [],
      activeSpeaker: null,
      hostNotice: null,
      encryption: { status: 'starting', source: null, epoch: 0, password: options.password },
    },
    hidden: [],
    viewers: {},
    chatOpen: false,
    speakerChangedAt: 0,
    reactionCount: 0,
  };
}

export function step(state: MachineState, event: MeetingEvent): Step {
  const run = new Run(state);
  run.handle(event);
  return { state: run.state, effects: run.effects };
}

/** One step: the state as it changes and the effects in the order they must run. */
class Run {
  readonly effects: Effect[] = [];

  constructor(public state: MachineState) {}

  private get view() {
    return this.state.view;
  }

  private set(change: Partial<SessionState>) {
    this.state = { ...this.state, view: { ...this.state.view, ...change } };
  }

  private emit(...effects: Effect[]) {
    this.effects.push(...effects);
  }

  private peer(id: string) {
    return this.view.peers.find((p) => p.id === id);
  }

  private updatePeer(id: string, change: (peer: RemotePeer) => Partial<RemotePeer>) {
    if (!this.peer(id)) return;
    this.set({ peers: this.view.peers.map((peer) => (peer.id === id ? { ...peer, ...change(peer) } : peer)) });
  }

  handle(event: MeetingEvent) {
    const ended = isEnded(this.view.phase);
    switch (event.type) {
      case 'server':
        // After the end nothing the server still had queued changes the screen.
        if (!ended) this.onServer(event.event, event.at);
        return;
      case 'stream-refused':
        // A "removed" or "denied" handled before says why better than a bare refusal.
        if (!ended) this.end('rejected');
        return;
      case 'signaling':
        if (event.status !== this.view.signaling) this.set({ signaling: event.status });
        return;
      case 'network-online':
        if (!ended) this.emit({ type: 'restart-ice' });
        return;
      case 'leave':
        if (this.view.phase === 'left') return;
        this.emit({ type: 'announce-leave' });
        this.end('left');
        return;
      case 'set-muted':
        this.emit({ type: 'microphone', enabled: !event.muted });
        this.updateLocal({ muted: event.muted });
        return;
      case 'camera':
        this.set({ localCamera: event.track });
        this.emit({ type: 'apply-encodings' });
        this.updateLocal({ cameraOff: !event.track });
        return;
      case 'screen':
        this.set({ localScreen: event.track });
        this.emit({ type: 'apply-encodings' });
        this.updateLocal({ sharing: !!event.track });
        return;
      case 'hand':
        this.updateLocal({ hand: event.hand });
        return;
      case 'recording':
        this.updateLocal({ recording: event.recording });
        return;
      case 'send-chat': {
        const text = chatText(event.text);
        if (!text) return;
        this.emit({ type: 'broadcast', message: { t: 'chat', id: event.id, text, at: event.at } });
        this.addChat({ id: event.id, from: this.view.self.id, name: this.view.self.name, text, at: event.at });
        return;
      }
      case 'react':
        this.emit({ type: 'broadcast', message: { t: 'reaction', emoji: event.emoji } });
        this.addReaction(this.view.self.id, this.view.self.name, event.emoji);
        return;
      case 'reaction-expired':
        this.state = { ...this.state, view: expireReaction(this.view, event.id) };
        return;
      case 'chat-open':
        this.state = { ...this.state, chatOpen: event.open };
        if (event.open && this.view.unreadChat) this.set({ unreadChat: 0 });
        return;
      case 'peer-visible':
        return this.setVisible(event.peerId, event.visible);
      case 'dismiss-notice':
        if (this.view.hostNotice) this.set({ hostNotice: null });
        return;
      case 'host-action':
        if (event.action === 'admit' || event.action === 'deny') this.dropKnock(event.target);
        // Before the request: their handoff request can arrive before our answer from the server.
        if (event.action === 'admit') this.emit({ type: 'keys-let-in', peerId: event.target, confirmed: true });
        return;
      case 'host-action-done':
        if (event.action === 'admit' && event.status !== 200) this.emit({ type: 'keys-let-in', peerId: event.target, confirmed: false });
        if (event.action === 'remove' && event.status === 200) this.emit({ type: 'close-link', peerId: event.target }, { type: 'rekey', removed: event.target });
        return;
      case 'lock':
        // Shown at once; the server's "locked" event confirms it.
        this.set({ locked: event.locked });
        return;
      case 'lock-done':
        if (event.status !== 200 && this.view.locked === event.locked) this.set({ locked: event.previous });
        return;
      case 'peer-message':
        return this.onPeerMessage(event.from, event.raw);
      case 'link-state':
        this.updatePeer(event.peerId, () => ({ connection: event.connection }));
        return;
      case 'remote-track':
        this.updatePeer(event.peerId, (peer) => ({ tracks: { ...peer.tracks, [event.slot]: event.track } }));
        return;
      case 'channel-open':
        this.emit({ type: 'send-peer', peerId: event.peerId, message: { t: 'state', ...this.view.local } });
        if (this.state.hidden.includes(event.peerId)) this.emit({ type: 'send-peer', peerId: event.peerId, message: { t: 'view', visible: false } });
        return;
      case 'peer-keys':
        this.updatePeer(event.peerId, () => ({ keys: event.keys }));
        return;
      case 'encryption':
        this.set({ encryption: event.encryption });
        return;
      case 'peer-verified':
        // In each pair the smaller id makes the offer.
        if (!ended && this.peer(event.peerId) && this.view.self.id < event.peerId) this.openLink(event.peerId, true);
        return;
      case 'peer-signal':
        if (!ended && this.peer(event.peerId)) this.openLink(event.peerId, false);
        return;
      case 'peer-tampered':
        // Someone changed what this peer sent on the way: no connection to them.
        this.emit({ type: 'close-link', peerId: event.peerId });
        this.updatePeer(event.peerId, () => ({ keys: 'tampered', connection: 'failed' }));
        return;
      case 'levels':
        return this.onLevels(event.levels, event.now);
      case 'quality':
        return this.onQuality(event.quality);
    }
  }

  private onServer(event: ServerEvent, at: number) {
    switch (event.type) {
      case 'welcome':
      case 'admitted':
        return this.enterCall(event.participants, event.locked);
      case 'waiting':
        this.set({ phase: 'waiting' });
        return;
      case 'denied':
        return this.end('denied');
      case 'removed':
        return this.end('removed');
      case 'join':
        if (event.participant.id !== this.view.self.id) this.addPeer(event.participant);
        return;
      case 'leave':
        return this.removePeer(event.participantId);
      case 'signal':
        this.emit({ type: 'keys-receive', from: event.from, envelope: event.envelope });
        return;
      case 'knock':
        if (!this.view.knocks.some((p) => p.id === event.participant.id)) this.set({ knocks: [...this.view.knocks, event.participant] });
        return;
      case 'knock-cancelled':
        return this.dropKnock(event.participantId);
      case 'locked':
        this.set({ locked: event.locked });
        return;
      case 'muted':
        this.emit({ type: 'microphone', enabled: false });
        this.updateLocal({ muted: true });
        this.set({ hostNotice: { kind: 'muted', at } });
        return;
      case 'unmute-request':
        this.set({ hostNotice: { kind: 'unmute-request', at } });
        return;
    }
  }

  /**
   * Who calls whom: in each pair the participant with the smaller id makes the offer, whoever
   * arrived first — so two people joining at the same moment never both offer. Links that
   * survive a reconnect are kept; people who left meanwhile are dropped.
   */
  private enterCall(participants: Participant[], locked: boolean) {
    const others = participants.filter((p) => p.id !== this.view.self.id);
    const present = new Set(others.map((p) => p.id));
    for (const peer of this.view.peers) if (!present.has(peer.id)) this.removePeer(peer.id);
    this.set({ phase: 'in-call', locked });
    for (const participant of others) this.addPeer(participant);
    this.emit({ type: 'keys-enter', others: others.map((p) => p.id) });
  }

  private addPeer(participant: Participant) {
    if (this.peer(participant.id)) return;
    // A peer we know nothing of yet: its keys were forgotten when it left, if it was here before.
    const peer: RemotePeer = { ...participant, connection: 'new', tracks: {}, media: NO_MEDIA, quality: 'unknown', level: 0, keys: 'pending' };
    this.set({ peers: [...this.view.peers, peer] });
    // What they sent before we knew them.
    this.emit({ type: 'apply-encodings' }, { type: 'keys-release', peerId: participant.id });
  }

  private removePeer(id: string) {
    const { [id]: _gone, ...viewers } = this.state.viewers;
    void _gone;
    this.state = { ...this.state, hidden: this.state.hidden.filter((p) => p !== id), viewers };
    this.set({
      peers: this.view.peers.filter((p) => p.id !== id),
      knocks: this.view.knocks.filter((p) => p.id !== id),
      activeSpeaker: this.view.activeSpeaker === id ? null : this.view.activeSpeaker,
    });
    this.emit({ type: 'close-link', peerId: id }, { type: 'keys-forget', peerId: id }, { type: 'apply-encodings' });
  }

  private openLink(peerId: string, initiator: boolean) {
    this.emit({ type: 'open-link', peerId, initiator }, { type: 'apply-encodings' });
  }

  private dropKnock(id: string) {
    if (this.view.knocks.some((p) => p.id === id)) this.set({ knocks: this.view.knocks.filter((p) => p.id !== id) });
  }

  private end(phase: Phase) {
    this.emit({ type: 'shutdown' });
    this.set({ phase, peers: [], knocks: [] });
  }

  private updateLocal(change: Partial<MediaState>) {
    const local = { ...this.view.local, ...change };
    this.set({ local });
    this.emit({ type: 'broadcast', message: { t: 'state', ...local } });
  }

  /** Tells a peer whether we show their camera, so a hidden tile costs them nothing. */
  private setVisible(peerId: string, visible: boolean) {
    const isHidden = this.state.hidden.includes(peerId);
    if (visible !== isHidden) return;
    const hidden = visible ? this.state.hidden.filter((id) => id !== peerId) : [...this.state.hidden, peerId];
    this.state = { ...this.state, hidden };
    this.emit({ type: 'send-peer', peerId, message: { t: 'view', visible } });
  }

  private addChat(message: ChatMessage) {
    this.state = { ...this.state, view: addChat(this.view, message, this.view.self.id, this.state.chatOpen) };
  }

  private addReaction(from: string, name: string, emoji: string) {
    const id = `reaction-${this.state.reactionCount + 1}`;
    this.state = { ...this.state, reactionCount: this.state.reactionCount + 1, view: addReaction(this.view, { id, from, name, emoji }) };
    this.emit({ type: 'expire-reaction', id, afterMs: REACTION_MS });
  }

  private onPeerMessage(from: string, raw: unknown) {
    const message = parsePeerMessage(raw);
    const peer = this.peer(from);
    if (!message || !peer) return;
    switch (message.t) {
      case 'state': {
        const { t: _type, ...media } = message;
        void _type;
        this.updatePeer(peer.id, () => ({ media }));
        return;
      }
      case 'chat':
        return this.addChat({ id: message.id, from: peer.id, name: peer.name, text: message.text, at: message.at });
      case 'reaction':
        return this.addReaction(peer.id, peer.name, message.emoji);
      case 'view':
        this.state = { ...this.state, viewers: { ...this.state.viewers, [peer.id]: message.visible } };
        this.emit({ type: 'apply-encodings' });
        return;
      case 'rekey':
        // Only a host moves the meeting to a new epoch; the key exchange keeps only a later one.
        if (peer.isHost) this.emit({ type: 'keys-accept-rekey', epoch: message.epoch, secret: message.secret });
        return;
    }
  }

  /** The active speaker: the loudest unmuted peer, after a short hold. */
  private onLevels(levels: Record<string, number>, now: number) {
    let loudest: string | null = null;
    let loudestLevel = SPEAKING_LEVEL;
    let changed = false;
    const peers = this.view.peers.map((peer) => {
      const level = levels[peer.id] ?? 0;
      if (!peer.media.muted && level > loudestLevel) {
        loudest = peer.id;
        loudestLevel = level;
      }
      if (Math.abs(level - peer.level) < SPEAKING_LEVEL) return peer;
      changed = true;
      return { ...peer, level };
    });
    const current = this.view.activeSpeaker;
    const speaker = loudest && loudest !== current && now - this.state.speakerChangedAt > SPEAKER_HOLD_MS ? loudest : current;
    if (speaker !== current) this.state = { ...this.state, speakerChangedAt: now };
    if (changed || speaker !== current) this.set({ peers, activeSpeaker: speaker });
  }

  private onQuality(quality: Record<string, Quality>) {
    const peers = this.view.peers.map((peer) => {
      const next = quality[peer.id];
      return next && next !== peer.quality ? { ...peer, quality: next } : peer;
    });
    if (peers.some((peer, index) => peer !== this.view.peers[index])) this.set({ peers });
  }
}
