// The call's data-channel features (issue 49 point 2), in the spirit of LiveKit's text-stream and
// RPC handlers: a feature registers with the session under a message prefix (and, if it opens
// data channels of its own, a channel-label prefix) and hears what concerns it — its messages, its
// channels, a peer's main channel opening, a peer gone, the call's end — without the session
// knowing what it does. File transfer (files/files-feature.ts) is the first; the session
// (session.ts) grows no code per feature. Every message here came sealed, over a pair's channel or
// through the SFU (messenger.ts), from the peer it names.

/** What a feature may reach of the call. */
export interface FeatureContext {
  readonly selfId: string;
  /** Bytes: the largest file sent or received (JoinAnswer.fileLimitBytes). */
  readonly fileLimit: number;
  /** The peers a feature can talk to now: keys verified, main data channel open. */
  peers(): { id: string; name: string }[];
  /** To one peer, sealed for it alone (through the SFU or over the pair's main channel: messenger.ts); false when neither is open. */
  send(peerId: string, message: { t: string }): boolean;
  /** To every peer of peers(), sealed once through the SFU for those who hear us there instead of once per peer. */
  broadcast(message: { t: string }): void;
  /** To these peers, likewise. */
  sendToAll(peerIds: readonly string[], message: { t: string }): void;
  /** A data channel of the feature's own (its label starts with the feature's channel prefix), on a link made for it if there is none. */
  openChannel(peerId: string, label: string): Promise<RTCDataChannel | null>;
  /** The server's roster says this peer (our own id included) is the room's host (a feature obeys control messages only from it). */
  isHost(peerId: string): boolean;
  selfIsHost(): boolean;
  /** Peers our links stop carrying media and chat to (breakout/breakout-feature.ts); asked again for each new link. */
  setApart(apart: (peerId: string) => boolean): void;
  /** In another breakout room now: a feature that follows the rooms (captions) neither sends to nor shows this peer. */
  inAnotherRoom(peerId: string): boolean;
}

export interface CallFeature {
  /** The messages it takes: those whose `t` starts with this ("file-"). */
  readonly prefix: string;
  /** The data channels a peer opens that it takes, by label ("file:"); a channel no feature takes is closed. */
  readonly channelPrefix?: string;
  receive(peerId: string, message: { t: string }): void;
  channel?(peerId: string, channel: RTCDataChannel): void;
  /** The main channel to this peer opened (a late joiner can be told what is under way). */
  channelOpen?(peerId: string): void;
  peerGone?(peerId: string): void;
  close?(): void;
}

/** A feature the call makes once, the first time it is asked for (CallFeatures.use). */
export interface FeatureDefinition<T extends CallFeature> {
  readonly name: string;
  create(ctx: FeatureContext): T;
}

const tagged = (raw: unknown): raw is { t: string } => typeof raw === 'object' && raw !== null && typeof (raw as { t?: unknown }).t === 'string';

export class CallFeatures {
  private readonly features: CallFeature[] = [];
  private readonly made = new Map<FeatureDefinition<CallFeature>, CallFeature>();
  private closed = false;

  constructor(private readonly ctx: FeatureContext) {}

  /** The call's instance of this feature, made and registered the first time. */
  use<T extends CallFeature>(definition: FeatureDefinition<T>): T {
    let feature = this.made.get(definition) as T | undefined;
    if (!feature) {
      feature = definition.create(this.ctx);
      this.register(feature);
      this.made.set(definition, feature);
    }
    return feature;
  }

  /** Adds a feature; two that would both take a message or a channel are refused. */
  register(feature: CallFeature): () => void {
    const overlaps = (a?: string, b?: string) => Boolean(a && b && (a.startsWith(b) || b.startsWith(a)));
    const clash = this.features.find((other) => overlaps(other.prefix, feature.prefix) || overlaps(other.channelPrefix, feature.channelPrefix));
    if (clash) throw new Error(`call feature: "${feature.prefix}" overlaps "${clash.prefix}"`);
    this.features.push(feature);
    return () => {
      const at = this.features.indexOf(feature);
      if (at >= 0) this.features.splice(at, 1);
    };
  }

  /** A message from a peer: true if a feature took it (the rest go to the meeting machine). */
  receive(peerId: string, raw: unknown): boolean {
    if (this.closed || !tagged(raw)) return false;
    const feature = this.features.find((f) => raw.t.startsWith(f.prefix));
    feature?.receive(peerId, raw);
    return Boolean(feature);
  }

  /** A data channel a peer opened: to the feature its label names, or closed. */
  channel(peerId: string, channel: RTCDataChannel) {
    const feature = this.closed ? undefined : this.features.find((f) => f.channelPrefix && channel.label.startsWith(f.channelPrefix));
    if (feature?.channel) feature.channel(peerId, channel);
    else channel.close();
  }

  channelOpen(peerId: string) {
    if (!this.closed) for (const feature of this.features) feature.channelOpen?.(peerId);
  }

  peerGone(peerId: string) {
    for (const feature of this.features) feature.peerGone?.(peerId);
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    for (const feature of this.features) feature.close?.();
  }
}
