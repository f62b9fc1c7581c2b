// The meeting as a pure state machine: step(state, event) → { state, effects }. Every server
// event, host action, local action, link and key-exchange outcome comes in as an event; what must
// happen outside (open or close a connection, send on the data channels, hand an envelope to the
// key exchange, stop everything) goes out as plain-data effects that session.ts carries out. No
// DOM, no fetch, no RTCPeerConnection here: tracks are opaque values, ids and times come in with
// the events — so the whole meeting logic is tested in Node (tests/unit/meeting-machine.test.ts).
// The types are in meeting-state.ts, the speaker and quality rules in activity.ts.
import type { Participant, ServerEvent } from '@/lib/meeting/protocol';
import { speakerStep, withQuality } from './activity';
import { addChat, addReaction, chatText, expireReaction, REACTION_MS, type ChatMessage } from './chat';
import { isEnded, type Effect, type MachineState, type MeetingEvent, type Phase, type RemotePeer, type SessionState, type Step } from './meeting-state';
import { parsePeerMessage, type MediaState } from './peer-messages';
import type { Quality } from '../links/stats';
import { decideRoute, keepsLinks, type RouteInput } from './route-decisions';
import { forgetTracks, receive } from './received-tracks';

export * from './meeting-state';

const NO_MEDIA: MediaState = { muted: false, cameraOff: false, sharing: false, hand: false, recording: false };

export function step(state: MachineState, event: MeetingEvent): Step {
  const run = new Run(state);
  const linked = run.keepsLinks();
  run.handle(event);
  run.linksFollow(linked);
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

  /** Whether every verified peer gets a connection now (route-decisions.ts keepsLinks). */
  keepsLinks(): boolean {
    return keepsLinks(this.state.route, this.view.peers.length + 1);
  }

  /**
   * The call became one that keeps a connection to everyone (it shrank, the SFU failed or there is
   * none): one to each verified peer that has none, the smaller id offering. Those too many go by
   * agreement through the SFU (call/link-pruning.ts), not here.
   */
  linksFollow(before: boolean) {
    if (before || !this.keepsLinks() || isEnded(this.view.phase)) return;
    for (const peer of this.view.peers) if (peer.keys === 'verified') this.emit({ type: 'open-link', peerId: peer.id, initiator: this.view.self.id < peer.id });
    this.emit({ type: 'apply-encodings' });
  }

  handle(event: MeetingEvent) {
    const ended = isEnded(this.view.phase);
    switch (event.type) {
      case 'server':
        // After the end nothing the server still had queued changes the screen.
        // The number in the call may move media to or from the SFU.
        if (!ended) this.onServer(event.event, event.at);
        if (!isEnded(this.view.phase)) this.onRoute({ type: 'check' });
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
        if (event.action === 'remove' && event.status === 200)
          this.emit({ type: 'close-link', peerId: event.target }, { type: 'rekey', removed: event.target });
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
      case 'via-sfu':
        this.state = receive(this.state, event);
        return;
      case 'channel-open':
        this.emit({ type: 'send-peer', peerId: event.peerId, message: { t: 'state', ...this.view.local } });
        if (this.state.hidden.includes(event.peerId)) this.emit({ type: 'send-peer', peerId: event.peerId, message: { t: 'view', visible: false } });
        return;
      case 'peer-keys': {
        const before = this.peer(event.peerId)?.keys;
        this.updatePeer(event.peerId, () => ({ keys: event.keys }));
        // Only verified peers are connected to: a link made at the handoff goes if the newcomer
        // fails to prove the key it was given.
        if (event.keys === 'mismatch' && before === 'pending') this.emit({ type: 'close-link', peerId: event.peerId });
        return;
      }
      case 'encryption':
        this.set({ encryption: event.encryption });
        return;
      case 'peer-handed-off':
        // Who hands the key over offers, at once: the key, our announcement and the offer reach
        // the newcomer together, one hop, whatever the ids (their answer is applied only once
        // they proved the key, key-exchange.ts).
        if (!ended && this.peer(event.peerId) && this.keepsLinks()) this.openLink(event.peerId, true);
        return;
      case 'peer-verified':
        // Without a handoff between us, the smaller id offers; the one who handed us the key offers to us.
        if (!ended && this.peer(event.peerId) && this.keepsLinks() && !event.theyHandedOff && this.view.self.id < event.peerId)
          this.openLink(event.peerId, true);
        return;
      case 'peer-signal':
        // Answered whatever the call's size: a peer's signal is an offer for a link it needs (a file's).
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
      case 'route':
        if (!ended) this.onRoute(event.input);
        return;
    }
  }

  /** The route's decisions (route-decisions.ts) on the number in the call now. */
  private onRoute(input: RouteInput) {
    const next = decideRoute(this.state.route, input, this.view.peers.length + 1);
    this.state = { ...this.state, route: next.state };
    if (next.state.route !== this.view.mediaRoute) this.set({ mediaRoute: next.state.route });
    for (const effect of next.effects) this.emit({ type: 'route', effect });
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
        if (event.participant.id === this.view.self.id) return;
        this.addPeer(event.participant);
        // A newcomer without the key asked for it with their join: handled as if they had sent
        // the request themselves, one round trip sooner (issue 17).
        if (event.keyRequest) {
          const envelope = JSON.stringify({ k: 'handoff-request', key: event.keyRequest });
          this.emit({ type: 'keys-receive', from: event.participant.id, envelope });
        }
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
    const peer: RemotePeer = { ...participant, connection: 'new', tracks: {}, media: NO_MEDIA, quality: 'unknown', keys: 'pending' };
    this.set({ peers: [...this.view.peers, peer] });
    // What they sent before we knew them.
    this.emit({ type: 'apply-encodings' }, { type: 'keys-release', peerId: participant.id });
  }

  private removePeer(id: string) {
    const { [id]: _gone, ...viewers } = this.state.viewers;
    void _gone;
    this.state = { ...this.state, hidden: this.state.hidden.filter((p) => p !== id), viewers, received: forgetTracks(this.state.received, id) };
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

  private onLevels(levels: Record<string, number>, now: number) {
    const next = speakerStep(this.view, this.state.speakerChangedAt, levels, now);
    if (!next) return;
    this.state = { ...this.state, speakerChangedAt: next.speakerChangedAt };
    this.set({ activeSpeaker: next.activeSpeaker });
  }

  private onQuality(quality: Record<string, Quality>) {
    const peers = withQuality(this.view.peers, quality);
    if (peers) this.set({ peers });
  }
}
