// A Node participant's media through the SFU (issue 38), the way the browser's SfuMedia does it
// (lib/meeting/client/sfu/sfu-media.ts), over libdatachannel: the app's own Janus client
// (janus-session.ts, on the `ws` package) opens a session with the ticket's token; a publisher
// joins the meeting's VideoRoom with id = participant id and the room token and offers one
// sendonly Opus track (jsep e2ee: true); a subscriber (with the publisher's private_id) takes
// the feeds it is told to, answers Janus's offers and `start`s. Frames go out sealed once under
// the participant's sender key (the frame worker's name 'sfu') and come in opened per sender
// ('sfu:<id>'), exactly the browser's frame format. The call's messages (issue 46) go on data
// channels as the browser's sfu-channels.ts opens them: 'enclave' on the publisher before its
// offer, and 'enclave-in' on the subscription once Janus's offer has data (Janus relays its
// publishers' messages to a subscriber only after that subscriber opened a channel of its own).
// Janus opens one channel per publisher on the subscription, on the lowest free SCTP stream, odd or
// even; libdatachannel closes a channel the other side opens on a stream of its own parity (RFC 8832
// section 6, where Chromium lets it pass), so every other publisher's messages would be lost: our own
// idle channels fill the streams of our parity ahead of Janus (SPARE_STREAMS more than we subscribe to).
import nodeDataChannel from 'node-datachannel';
import WebSocketImpl from 'ws';
import type { Bytes } from '@/lib/meeting/e2ee/bytes';
import type { SfuTicket } from '@/lib/meeting/protocol';
import { JanusSession, type HandleEvent, type JanusHandle } from '@/lib/meeting/client/sfu/janus-session';
import { SFU_SEND, sfuPeer } from '@/lib/meeting/client/sfu/sender-key-ring';
import {
  departedPublisher,
  type FeedChoice,
  publisherJoin,
  publishersIn,
  streamsOf,
  subscriptionRequest,
  type SubscribedStream,
} from '@/lib/meeting/client/sfu/videoroom-requests';
import type { NodeFrames } from './node-frames';
import { newRtpSender, rtpPacket, rtpPayload, type RtpSender } from './rtp';

// Node 20 has no WebSocket of its own: the app's Janus client runs on `ws`, which speaks the same API.
globalThis.WebSocket ??= WebSocketImpl as unknown as typeof WebSocket;

const { PeerConnection, Audio, RtcpReceivingSession } = nodeDataChannel;
type PeerConnection = InstanceType<typeof PeerConnection>;
type Track = ReturnType<PeerConnection['addTrack']>;
type DataChannel = ReturnType<PeerConnection['createDataChannel']>;

/** What a data channel takes here at most, as the browser's (sfu-channels.ts). */
const MAX_DATA_BYTES = 96 * 1024;
/** How many streams of our parity stay taken beyond the publishers we subscribe to (see above). */
const SPARE_STREAMS = 4;
/**
 * One received audio frame in OPEN_EVERY (default 10) is checked and opened. Node's WebCrypto
 * runs every verify and decrypt on libuv's four threads, which this one process shares: at
 * N = 50, every frame of both browsers to all 48 Node participants was 4,800 frames a second,
 * more than the pool finished, so its queue grew without end and a join's key exchange, queued
 * behind it, took minutes. Frames open on their own (SFrame), so a sample still proves the keys.
 */
const OPEN_EVERY = Math.max(1, Number(process.env.OPEN_EVERY ?? 10));

/** What the call's messages (node-messages.ts, the app's SfuData) hear of the channels. */
export interface NodeSfuData {
  receive(bytes: Bytes): void;
  /** Publishers whose messages reach us now: greeted. */
  opened(participantIds: string[]): void;
  /** A publisher left Janus's room. */
  lost(participantId: string): void;
}

export interface NodeSfuOptions {
  selfId: string;
  ticket: SfuTicket;
  frames: NodeFrames;
  certificate: { certFile: string; keyFile: string };
  /** Whether we receive this participant's audio (the bench may spare Node-to-Node audio). */
  receivesFrom: (participantId: string) => boolean;
  /** The first frame from this sender opened through the SFU. */
  onFirstAudio: (participantId: string) => void;
  /** The connection to Janus was lost (its node died): the browser's SfuMedia onLost. */
  onLost?: () => void;
  /** The call's messages through Janus's data channels; none: no data channel. */
  data?: NodeSfuData;
}

/** libdatachannel's description once its candidates are in it (loopback: gathering is immediate). */
async function gathered(pc: PeerConnection, timeoutMs = 3000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (pc.gatheringState() !== 'complete' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  const description = pc.localDescription();
  if (!description) throw new Error('no local description');
  return description.sdp;
}

export class NodeSfu {
  /** Connection states of the publishing and the receiving connection. */
  publisherState = 'new';
  subscriberState = 'new';
  sentPackets = 0;
  sentBytes = 0;
  /** Bytes of RTP received from Janus (all feeds), frames opened per sender. */
  receivedBytes = 0;
  receivedPackets = 0;
  readonly opened = new Map<string, number>();
  private publisherPc: PeerConnection | null = null;
  private subscriberPc: PeerConnection | null = null;
  private audio: Track | null = null;
  private readonly rtp: RtpSender = newRtpSender(111);
  private subscriber: JanusHandle | null = null;
  private privateId: number | null = null;
  /** Publishing in the room now (ourselves excluded), and those we subscribed to. */
  private readonly publishers = new Set<string>();
  private readonly feeds = new Set<string>();
  /** Audio frames received per publisher, opened or not (OPEN_EVERY). */
  private readonly arrived = new Map<string, number>();
  /** Each publisher's streams other than video, by its mid, as Janus lists them: what we subscribe to. */
  private readonly wantedMids = new Map<string, string[]>();
  private streams = new Map<string, SubscribedStream>();
  /** Our channel on the publisher, our own on the subscription, and the publishers whose messages reach us. */
  private out: DataChannel | null = null;
  private in: DataChannel | null = null;
  private readonly hearing = new Set<string>();
  /** Every channel Janus opened on the subscription (one per publisher it relays), and our idle ones; kept from the collector. */
  private readonly relayed: DataChannel[] = [];
  private readonly fillers: DataChannel[] = [];
  private work: Promise<void> = Promise.resolve();
  private closed = false;

  private constructor(
    private readonly options: NodeSfuOptions,
    private readonly session: JanusSession,
  ) {}

  static async start(options: NodeSfuOptions): Promise<NodeSfu> {
    const session = await JanusSession.open(options.ticket.url, options.ticket.token);
    const sfu = new NodeSfu(options, session);
    session.onLost = () => options.onLost?.();
    try {
      await sfu.publish();
    } catch (error) {
      sfu.close();
      throw error;
    }
    return sfu;
  }

  /** One Opus frame sealed under our sender key, sent once: Janus forwards it to every subscriber. */
  async sendAudio(frame: Bytes, samples: number): Promise<boolean> {
    if (this.closed || !this.audio?.isOpen()) return false;
    const sealed = await this.options.frames.sealAudio(SFU_SEND, frame);
    if (!sealed || this.closed) return false;
    const packet = rtpPacket(this.rtp, sealed, samples);
    try {
      if (!this.audio.sendMessageBinary(packet)) return false;
    } catch {
      return false;
    }
    this.sentPackets += 1;
    this.sentBytes += packet.length;
    return true;
  }

  /** A message on our publisher's channel; false when it is not open. */
  sendData(bytes: Bytes): boolean {
    if (this.closed || !this.out?.isOpen()) return false;
    try {
      return this.out.sendMessageBinary(bytes);
    } catch {
      return false;
    }
  }

  /** The publishers in our subscription. */
  subscriptions(): string[] {
    return [...this.feeds];
  }

  /** Looks again at whom we receive (a participant's name became known, or the bench's choice changed). */
  refresh() {
    this.subscribeTo([...this.publishers]);
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    for (const pc of [this.publisherPc, this.subscriberPc]) {
      try {
        pc?.close();
      } catch {
        // already closed
      }
    }
    this.session.close();
  }

  private connection(name: string): PeerConnection {
    return new PeerConnection(`${this.options.selfId}>${name}`, {
      iceServers: [],
      certificatePemFile: this.options.certificate.certFile,
      keyPemFile: this.options.certificate.keyFile,
      disableAutoNegotiation: true,
    });
  }

  private async publish() {
    const { ticket, selfId } = this.options;
    const handle = await this.session.attach((event) => this.onPublisherEvent(event));
    const joined = await handle.message(publisherJoin(ticket, selfId));
    this.privateId = typeof joined.data?.private_id === 'number' ? joined.data.private_id : null;
    const pc = (this.publisherPc = this.connection('sfu'));
    pc.onStateChange((state) => (this.publisherState = state));
    const audio = new Audio('0', 'SendOnly');
    audio.addOpusCodec(111);
    audio.addSSRC(this.rtp.ssrc, `node-${selfId}`);
    this.audio = pc.addTrack(audio);
    this.audio.setMediaHandler(new RtcpReceivingSession());
    // After the audio (its mid stays 0, as the publish names it), before the offer: it gets a data section.
    if (this.options.data) this.out = pc.createDataChannel('enclave');
    pc.setLocalDescription('offer');
    const sdp = await gathered(pc);
    const answer = await handle.message({ request: 'publish', descriptions: [{ mid: '0', description: 'audio' }] }, { type: 'offer', sdp, e2ee: true });
    if (!answer.jsep) throw new Error('janus: no answer to the publish');
    const payloadType = /a=rtpmap:(\d+) opus\/48000/i.exec(answer.jsep.sdp)?.[1];
    if (payloadType) this.rtp.payloadType = Number(payloadType);
    pc.setRemoteDescription(answer.jsep.sdp, 'answer');
    this.addPublishers(joined.data?.publishers);
  }

  private onPublisherEvent(event: HandleEvent) {
    if (event.janus !== 'event' || !event.data) return;
    this.addPublishers(event.data.publishers);
    const gone = departedPublisher(event.data);
    if (gone) {
      this.publishers.delete(gone);
      this.feeds.delete(gone);
      this.hearing.delete(gone);
      this.options.data?.lost(gone);
    }
  }

  private addPublishers(list: unknown) {
    const ids = publishersIn(list, this.options.selfId);
    for (const [id, mids] of nonVideoMids(list)) this.wantedMids.set(id, mids);
    for (const id of ids) this.publishers.add(id);
    this.subscribeTo(ids);
  }

  private subscribeTo(ids: string[]) {
    const fresh = ids.filter((id) => !this.feeds.has(id) && this.options.receivesFrom(id));
    if (fresh.length === 0) return;
    for (const id of fresh) this.feeds.add(id);
    this.work = this.work
      .then(() => this.subscribe(fresh))
      .catch((error: unknown) => console.warn(`${this.options.selfId} sfu subscribe:`, (error as Error).message));
  }

  /** The first feeds join our subscription; later ones are added to it. Janus answers with an offer. */
  private async subscribe(feeds: string[]) {
    if (this.closed) return;
    const first = !this.subscriber;
    this.subscriber ??= await this.session.attach((event) => this.onSubscriberEvent(event));
    // A browser's camera costs Janus, and this one process, a stream per Node participant that
    // nothing here reads: only its audio and data are taken (all of a feed whose streams Janus did not list).
    const choices = feeds.flatMap((feed): FeedChoice[] => this.wantedMids.get(feed)?.map((mid) => ({ feed, mid })) ?? [feed]);
    const answer = await this.subscriber.message(subscriptionRequest(this.options.ticket, choices, this.privateId, first));
    if (answer.jsep) await this.answerOffer(answer);
  }

  /** Janus renegotiates on its own when a feed we receive goes away. */
  private onSubscriberEvent(event: HandleEvent) {
    if (event.janus === 'event' && event.jsep)
      this.work = this.work.then(() => this.answerOffer(event)).catch((error: unknown) => console.warn('sfu renegotiate', error));
  }

  private async answerOffer(event: HandleEvent) {
    if (this.closed) return;
    this.streams = streamsOf(event.data);
    const pc = (this.subscriberPc ??= this.receivingConnection());
    pc.setRemoteDescription(event.jsep!.sdp, 'offer');
    // Our own channel, the first time the offer has data: before the answer, so the answer carries it.
    if (this.options.data && !this.in && /^m=application /m.test(event.jsep!.sdp)) {
      const channel = (this.in = pc.createDataChannel('enclave-in'));
      this.take(channel);
      channel.onOpen(() => this.heardNow());
    }
    // Opened in creation order once SCTP is up, each on the next stream of our parity, before Janus opens its own.
    if (this.in) while (this.fillers.length < this.feeds.size + SPARE_STREAMS) this.fillers.push(pc.createDataChannel('enclave-filler'));
    pc.setLocalDescription('answer');
    const sdp = await gathered(pc);
    await this.subscriber!.message({ request: 'start' }, { type: 'answer', sdp, e2ee: true });
    this.heardNow();
  }

  /** The publishers newly in an open subscription: their messages reach us, so we greet them (sfu-data.ts). */
  private heardNow() {
    if (this.closed || !this.in?.isOpen()) return;
    const fresh = [...this.feeds].filter((id) => this.publishers.has(id) && !this.hearing.has(id));
    for (const id of fresh) this.hearing.add(id);
    if (fresh.length > 0) this.options.data?.opened(fresh);
  }

  /** Bytes on a channel of the subscription (binary only, as the browser takes them) go to the call's messages. */
  private take(channel: DataChannel) {
    channel.onMessage((message) => {
      if (typeof message === 'string' || message.byteLength > MAX_DATA_BYTES) return;
      this.options.data?.receive(new Uint8Array(message) as Bytes);
    });
  }

  private receivingConnection(): PeerConnection {
    const pc = this.connection('sfu-in');
    pc.onStateChange((state) => (this.subscriberState = state));
    pc.onDataChannel((channel) => {
      this.relayed.push(channel);
      this.take(channel);
    });
    pc.onTrack((track) => {
      track.setMediaHandler(new RtcpReceivingSession());
      track.onMessage((message) => {
        this.receivedBytes += message.length;
        this.receivedPackets += 1;
        const feed = this.streams.get(track.mid())?.feed_id;
        const payload = rtpPayload(message);
        if (!feed || !payload || track.type() !== 'audio') return;
        const arrived = (this.arrived.get(feed) ?? 0) + 1;
        this.arrived.set(feed, arrived);
        if ((arrived - 1) % OPEN_EVERY !== 0) return;
        void this.options.frames.openAudio(sfuPeer(feed), new Uint8Array(payload)).then((opened) => {
          if (!opened) return;
          const count = (this.opened.get(feed) ?? 0) + 1;
          this.opened.set(feed, count);
          if (count === 1) this.options.onFirstAudio(feed);
        });
      });
    });
    return pc;
  }
}

/** Per publisher in a VideoRoom list, the mids of its streams that are not video. */
function nonVideoMids(list: unknown): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (!Array.isArray(list)) return out;
  for (const publisher of list as { id?: unknown; streams?: unknown }[]) {
    if (typeof publisher?.id !== 'string' || !Array.isArray(publisher.streams)) continue;
    const streams = publisher.streams as { type?: unknown; mid?: unknown; disabled?: unknown }[];
    out.set(
      publisher.id,
      streams.filter((stream) => stream.type !== 'video' && typeof stream.mid === 'string' && !stream.disabled).map((stream) => String(stream.mid)),
    );
  }
  return out;
}
