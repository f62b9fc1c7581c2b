// This page's media through the SFU (issue 38): one connection that publishes our audio, camera
// and screen to the meeting's Janus VideoRoom, and one that receives every other participant's
// streams. Frames are sealed once under our sender key (sender-key-ring.ts) and opened per
// sender; Janus forwards ciphertext. As on the mesh, a connection that carries media is made with
// the frame backend's options, so no frame passes without its transform (fail-closed). Each
// connection has a data channel too, for the call's messages (sfu-data.ts): Janus relays what we
// send on ours to every subscriber whose own channel on its subscription is open.
import type { SfuTicket } from '@/lib/meeting/protocol';
import type { Bytes } from '@/lib/meeting/e2ee/bytes';
import type { FrameBackend } from '../frames/frame-backends';
import { preferredCodecs } from '../links/codecs';
import { withOpusDtx } from '../media/encoding-policy';
import { SIMULCAST_LAYERS } from './layers';
import { forwardedLayer, LayerWatch } from './layer-watch';
import { SLOTS, type Slot } from '../links/slots';
import { JanusSession, type HandleEvent, type JanusHandle } from './janus-session';
import { SFU_SEND, sfuPeer } from './sender-key-ring';
import { DRAIN_MS } from './sfu-data';
import { Departures, SfuChannels, type ChannelListener } from './sfu-channels';
import {
  departedPublisher,
  publisherJoin,
  publishersIn,
  streamsOf,
  subscriptionRequest,
  unsubscriptionRequest,
  type SubscribedStream,
} from './videoroom-requests';

export interface SfuMediaContext {
  selfId: string;
  ticket: SfuTicket;
  frames: FrameBackend;
  /** ICE servers (TURN) as for the mesh. */
  rtcConfig(): RTCConfiguration;
  tracks: Record<Slot, MediaStreamTrack | null>;
  /** A participant's stream arrived through the SFU (its frames open once its sender key is here). */
  onRemoteTrack(participantId: string, slot: Slot, track: MediaStreamTrack): void;
  /** Participants publishing in the room now, ourselves excluded. */
  onPublishers?(participantIds: string[]): void;
  /** The connection to Janus was lost. */
  onLost?(): void;
  /** Janus's description of our subscription changed: layers are asked again. */
  onSubscribed?(): void;
  /** Publishers in another breakout room (breakout/breakout-rules.ts apart): not subscribed to. */
  apart?(participantId: string): boolean;
  /**
   * The call's messages (sfu-data.ts SfuData): bytes our subscription brought, the publishers whose
   * messages reach us now, one that left the room, and our bye before we stop hearing some.
   */
  data?: ChannelListener & { lost(participantId: string): void; bye(participantIds: string[]): void };
}

/** Janus's substream of a camera (SIMULCAST_LAYERS: 2 is 'h'), or none while its tile is hidden. */
type Layer = 0 | 1 | 2 | 'off';

const kindOf = (slot: Slot) => (slot === 'audio' ? 'audio' : 'video');
/**
 * A receiving transceiver's name in the frame worker: Janus may give an m-line another sender's
 * stream after a renegotiation (one who left, one who came), and the transform, attached once,
 * follows the name to whichever sender's keys FrameBackend.route gives it.
 */
const receiverName = (mid: string) => `sfu-mid:${mid}`;

/** Which of a sender's transceivers a forwarded stream is: its publisher named each by slot. */
function slotOf(stream: SubscribedStream): Slot | null {
  if (stream.type === 'audio') return 'audio';
  if (stream.type !== 'video') return null;
  return stream.feed_description === 'screen' ? 'screen' : 'camera';
}

export class SfuMedia {
  private publisherPc: RTCPeerConnection | null = null;
  private subscriberPc: RTCPeerConnection | null = null;
  private readonly senders = new Map<Slot, RTCRtpSender>();
  private subscriber: JanusHandle | null = null;
  private privateId: number | null = null;
  /** Who publishes in the room, ourselves excluded. */
  private readonly publishers = new Set<string>();
  /** The publishers in our subscription: those of our breakout room (all of them while no rooms are open). */
  private readonly subscribed = new Set<string>();
  /** Publishers subscribed to although in another room: the probe's test that their frames do not open here. */
  private readonly peeking = new Set<string>();
  /** The subscription's streams by mid, from Janus's latest description of it. */
  private streams = new Map<string, SubscribedStream>();
  /** Subscription changes, one after another: each is a renegotiation. */
  private subscriptionWork: Promise<void> = Promise.resolve();
  private closed = false;
  /** Back on the mesh, kept a moment for messages on their way (sfu-session.ts DRAIN_MS): no new subscription, track or publisher list. */
  private draining = false;
  /** The data channels for the call's messages (sfu-channels.ts). */
  private readonly channels: SfuChannels;
  /** Publishers told goodbye, whose subscription goes after DRAIN_MS (another breakout room's: sfu-channels.ts). */
  private readonly departures: Departures;
  /** The camera layer asked of each subscribed stream, by mid. */
  private readonly layers = new Map<string, Layer>();
  /** Asks a stream's layer again while Janus forwards a lower one (layer-watch.ts). */
  private readonly layerWatch = new LayerWatch((mid, layer) => void this.configureLayer(mid, layer).catch(() => undefined));
  /** Each participant's audio as it arrives through the SFU: who speaks (links/monitors.ts). */
  readonly audioReceivers = new Map<string, RTCRtpReceiver>();

  private constructor(
    private readonly ctx: SfuMediaContext,
    private readonly session: JanusSession,
  ) {
    this.channels = new SfuChannels(ctx.data, () => (this.draining ? [] : [...this.subscribed].filter((id) => !this.departures.has(id))));
    this.departures = new Departures(
      {
        pause: (ids, send) => this.pause(ids, send),
        bye: (ids) => ctx.data?.bye(ids),
        unsubscribe: (ids) => this.queue(() => this.unsubscribe(ids), 'sfu unsubscribe'),
        kept: (id) => this.wanted(id) && this.subscribed.has(id),
        rejoined: (ids) => {
          for (const id of ids) this.channels.forget(id);
          this.pause(ids, true);
          this.channels.heardNow();
          ctx.onSubscribed?.();
        },
        closed: () => this.closed,
      },
      DRAIN_MS,
    );
  }

  /** Connects, joins the room as a publisher, publishes, and subscribes to everyone publishing. */
  static async start(ctx: SfuMediaContext): Promise<SfuMedia> {
    const session = await JanusSession.open(ctx.ticket.url, ctx.ticket.token);
    const media = new SfuMedia(ctx, session);
    session.onLost = () => ctx.onLost?.();
    try {
      await media.publish();
    } catch (error) {
      media.close();
      throw error;
    }
    return media;
  }

  /** Those publishing in the room now, ourselves excluded. */
  publishing(): string[] {
    return [...this.publishers];
  }

  /** The publishers in our subscription (those we say goodbye to before we go). */
  subscriptions(): string[] {
    return [...this.subscribed];
  }

  /** A message on our publisher's channel; false when it is not open. */
  sendData(bytes: Bytes): boolean {
    return this.channels.send(bytes);
  }

  /**
   * Back on the mesh: messages still come in until close(), but no publisher event changes the
   * subscription or puts a track or a route anywhere (the links carry the media again).
   */
  drain() {
    this.draining = true;
    this.layerWatch.reset();
  }

  /** A new local track (or none) on our published transceiver: replaceTrack, no renegotiation. */
  async setTrack(slot: Slot, track: MediaStreamTrack | null) {
    this.ctx.tracks[slot] = track;
    await this.senders.get(slot)?.replaceTrack(track);
  }

  /** The next ticket's token for the session (the room and its pass stay the same). */
  renew(ticket: SfuTicket) {
    this.session.setToken(ticket.token);
  }

  /**
   * Which layer of a participant's camera Janus forwards us (sfu/layers.ts sfuLayer): 'off' pauses
   * it while its tile is hidden. Unchanged layers cost no request.
   */
  async setLayer(participantId: string, layer: Layer) {
    const stream = [...this.streams.values()].find((candidate) => candidate.feed_id === participantId && slotOf(candidate) === 'camera');
    // One told goodbye stays paused until it is gone (or back in our room: Departures rejoined).
    if (!stream || !this.subscriber || this.layers.get(stream.mid) === layer || this.departures.has(participantId)) return;
    this.layers.set(stream.mid, layer);
    this.layerWatch.asking(stream.mid, layer);
    await this.configureLayer(stream.mid, layer);
  }

  private async configureLayer(mid: string, layer: number | 'off') {
    await this.subscriber?.message({ request: 'configure', streams: [layer === 'off' ? { mid, send: false } : { mid, send: true, substream: layer }] });
  }

  /** What the SFU connections are doing, for the probe and the benches. */
  connections(): RTCPeerConnection[] {
    return [this.publisherPc, this.subscriberPc].filter((pc): pc is RTCPeerConnection => pc !== null);
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    this.layerWatch.reset();
    this.publisherPc?.close();
    this.subscriberPc?.close();
    this.session.close();
  }

  private connection(): RTCPeerConnection {
    return new RTCPeerConnection({ ...this.ctx.rtcConfig(), ...this.ctx.frames.rtcConfig, bundlePolicy: 'max-bundle' });
  }

  private async publish() {
    const handle = await this.session.attach((event) => this.onPublisherEvent(event));
    const joined = await handle.message(publisherJoin(this.ctx.ticket, this.ctx.selfId));
    this.privateId = typeof joined.data?.private_id === 'number' ? joined.data.private_id : null;

    const pc = (this.publisherPc = this.connection());
    pc.onicecandidate = ({ candidate }) => handle.trickle(candidate ? candidate.toJSON() : null);
    for (const slot of SLOTS) {
      // The camera in three layers (sfu/layers.ts SIMULCAST_LAYERS): Janus forwards each receiver one.
      const sendEncodings = slot === 'camera' ? SIMULCAST_LAYERS.map((layer) => ({ ...layer })) : undefined;
      const transceiver = pc.addTransceiver(this.ctx.tracks[slot] ?? kindOf(slot), { direction: 'sendonly', ...(sendEncodings && { sendEncodings }) });
      // Before the offer: the sender's frames wait for their transform and key, never leave clear.
      this.ctx.frames.attachSender(SFU_SEND, slot, transceiver.sender);
      const codecs = preferredCodecs(kindOf(slot));
      if (codecs && transceiver.setCodecPreferences) transceiver.setCodecPreferences(codecs);
      this.senders.set(slot, transceiver.sender);
    }
    // After the media (their mids stay 0–2, as Janus's descriptions name them), before the offer: it gets a data section.
    this.channels.publish(pc);
    const offer = await pc.createOffer();
    await pc.setLocalDescription(offer);
    const descriptions = pc.getTransceivers().map((transceiver, index) => ({ mid: transceiver.mid ?? String(index), description: SLOTS[index]! }));
    const answer = await handle.message({ request: 'publish', descriptions }, { type: 'offer', sdp: offer.sdp!, e2ee: true });
    if (!answer.jsep) throw new Error('janus: no answer to the publish');
    // Opus DTX as on the mesh (the sender reads it from the answer): nobody silent sends 50 packets
    // a second, most of what a large room's Janus would forward (bench:large-room, MODE=sfu).
    await pc.setRemoteDescription({ type: answer.jsep.type, sdp: withOpusDtx(answer.jsep.sdp) });
    this.addPublishers(joined.data?.publishers);
  }

  /** Whether we receive this publisher: one of our breakout room (or one the probe peeks at). */
  private wanted(id: string): boolean {
    return !this.ctx.apart?.(id) || this.peeking.has(id);
  }

  /**
   * Breakout rooms opened, closed or the host moved: the subscription follows our room, so Janus
   * stops forwarding us the others' streams (which our keys could not open anyway: sender-key-ring.ts regroup).
   */
  regroup() {
    const add = [...this.publishers].filter((id) => this.wanted(id) && !this.subscribed.has(id));
    const drop = [...this.subscribed].filter((id) => !this.wanted(id));
    if (drop.length > 0) this.departures.leave(drop);
    if (add.length > 0) this.queue(() => this.subscribe(add), 'sfu subscribe');
  }

  /** Janus stops (or starts again) forwarding these publishers' media; their data goes on. */
  private pause(feeds: string[], send: boolean) {
    const mids = [...this.streams.values()].filter((stream) => stream.feed_id && feeds.includes(stream.feed_id) && slotOf(stream)).map((stream) => stream.mid);
    for (const mid of mids) {
      this.layers.delete(mid);
      // Nothing to watch while paused: a nudge would ask Janus for the layer again, and so forward it.
      this.layerWatch.asking(mid, 'off');
    }
    if (mids.length > 0 && this.subscriber)
      void this.subscriber.message({ request: 'configure', streams: mids.map((mid) => ({ mid, send })) }).catch(() => undefined);
  }

  /** Tests only (probe.ts): receive this publisher although it is in another room, to count its frames failing to open. */
  peek(participantId: string) {
    this.peeking.add(participantId);
    this.regroup();
  }

  private queue(work: () => Promise<void>, label: string) {
    this.subscriptionWork = this.subscriptionWork.then(work).catch((error: unknown) => console.warn(label, error));
  }

  private onPublisherEvent(event: HandleEvent) {
    if (event.janus !== 'event' || !event.data) return;
    const gone = departedPublisher(event.data);
    if (gone) this.ctx.data?.lost(gone);
    if (this.draining) return;
    this.addPublishers(event.data.publishers);
    if (gone) {
      this.publishers.delete(gone);
      this.subscribed.delete(gone);
      this.channels.forget(gone);
      this.audioReceivers.delete(gone);
      this.ctx.onPublishers?.([...this.publishers]);
    }
  }

  private addPublishers(list: unknown) {
    const fresh = publishersIn(list, this.ctx.selfId).filter((id) => !this.publishers.has(id));
    if (fresh.length === 0) return;
    for (const id of fresh) {
      this.publishers.add(id);
    }
    this.ctx.onPublishers?.([...this.publishers]);
    const ours = fresh.filter((id) => this.wanted(id));
    if (ours.length > 0) this.queue(() => this.subscribe(ours), 'sfu subscribe');
  }

  /** The first feeds join our subscription; later ones are added to it. Janus answers with an offer either way. */
  private async subscribe(feeds: string[]) {
    // Checked when its turn comes: the rooms may have changed while earlier work ran.
    const now = feeds.filter((id) => this.publishers.has(id) && this.wanted(id) && !this.subscribed.has(id));
    if (this.closed || this.draining || now.length === 0) return;
    const first = !this.subscriber;
    this.subscriber ??= await this.session.attach((event) => this.onSubscriberEvent(event));
    for (const id of now) this.subscribed.add(id);
    const answer = await this.subscriber.message(subscriptionRequest(this.ctx.ticket, now, this.privateId, first));
    if (answer.jsep) await this.answerOffer(answer);
  }

  /** These feeds leave our subscription (another breakout room's): Janus stops forwarding them and renegotiates. */
  private async unsubscribe(feeds: string[]) {
    const now = feeds.filter((id) => this.subscribed.has(id) && !this.wanted(id));
    if (this.closed || !this.subscriber || now.length === 0) return;
    for (const id of now) {
      this.subscribed.delete(id);
      this.channels.forget(id);
      this.audioReceivers.delete(id);
    }
    const answer = await this.subscriber.message(unsubscriptionRequest(now));
    if (answer.jsep) await this.answerOffer(answer);
  }

  /** Janus renegotiates on its own when a feed we receive goes away or changes. */
  private onSubscriberEvent(event: HandleEvent) {
    const forwarded = event.janus === 'event' ? forwardedLayer(event.data) : null;
    if (forwarded) this.layerWatch.forwarding(forwarded.mid, forwarded.layer);
    if (event.janus === 'event' && event.jsep) {
      this.subscriptionWork = this.subscriptionWork.then(() => this.answerOffer(event)).catch((error: unknown) => console.warn('sfu renegotiate', error));
    }
  }

  private async answerOffer(event: HandleEvent) {
    this.streams = streamsOf(event.data);
    const list = [...this.streams.values()];
    // Before the description: frames of a stream arrive only once it is applied.
    await Promise.all(
      list.map((stream) => {
        const slot = slotOf(stream);
        return stream.feed_id && slot ? this.ctx.frames.route(receiverName(String(stream.mid)), sfuPeer(stream.feed_id), slot) : undefined;
      }),
    );
    // A stream Janus describes anew starts at its default layer: ask again.
    this.layers.clear();
    this.layerWatch.reset();
    const pc = (this.subscriberPc ??= this.receivingConnection());
    await pc.setRemoteDescription({ type: event.jsep!.type, sdp: event.jsep!.sdp });
    this.channels.described(pc, event.jsep!.sdp);
    const answer = await pc.createAnswer();
    await pc.setLocalDescription(answer);
    await this.subscriber!.message({ request: 'start' }, { type: 'answer', sdp: answer.sdp!, e2ee: true });
    if (this.draining) return;
    this.channels.heardNow();
    this.ctx.onSubscribed?.();
  }

  private receivingConnection(): RTCPeerConnection {
    const pc = this.connection();
    pc.onicecandidate = ({ candidate }) => this.subscriber?.trickle(candidate ? candidate.toJSON() : null);
    this.channels.receiving(pc);
    pc.ontrack = ({ transceiver, track }) => {
      const stream = this.streams.get(transceiver.mid ?? '');
      const slot = stream && slotOf(stream);
      if (!stream?.feed_id || !slot) return;
      // In the task that made the receiver: a transform set later would be bypassed (docs/e2ee-crypto.md).
      this.ctx.frames.attachReceiver(receiverName(String(stream.mid)), slot, transceiver.receiver);
      if (this.draining) return;
      if (slot === 'audio') this.audioReceivers.set(stream.feed_id, transceiver.receiver);
      this.ctx.onRemoteTrack(stream.feed_id, slot, track);
    };
    return pc;
  }
}
