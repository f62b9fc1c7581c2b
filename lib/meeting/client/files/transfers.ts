// Files between participants, end to end encrypted (docs/meetings.md "Files"). Loaded only when
// someone opens "Send a file" or an offer arrives (files-feature.ts), so a call that never
// sends one never downloads this code.
//
// One transfer = one file to one person. The offer (name, size, SHA-256, a fresh key) goes sealed
// for the receiver alone (call/messenger.ts send); nothing moves until the receiver accepts. Then
// the sender opens an ordered data channel for this transfer alone, on the pair's link (one made
// for it in a large call through the SFU: call/link-pruning.ts), and sends the file in sealed
// chunks (send-chunks.ts). The receiver keeps the bytes in memory (receive-buffer.ts: grown as
// they come, never reserved from the offer's word), checks the SHA-256 once the last arrived, and
// writes nothing to disk until the person saves it. A transfer in which nothing moves for
// STALL_MS ends on both sides (stall-watch.ts).
import { saveFile } from './save-file';
import { BUFFER_LOW, sendChunks } from './send-chunks';
import { CHUNK_BYTES, fileKeyFrom, newFileKey, openChunk, sha256Hex, type FileKey } from './file-crypto';
import { parseFileMessage, safeFileName, type FileMessage } from './file-messages';
import { ReceiveBuffer } from './receive-buffer';
import { StallWatch } from './stall-watch';
import { viewOf, type SendResult, type TransferProblem, type TransferStatus, type TransferView } from './transfer-view';

export type { SendResult, TransferProblem, TransferStatus, TransferView };

/** The screen hears of progress at most this often. */
const PROGRESS_MS = 100;
/** How long a closed incoming channel waits for the sender's reason before it says "dropped". */
const REASON_GRACE_MS = 1_000;
const CHANNEL_PREFIX = 'file:';

export interface FileTransferHooks {
  /** Bytes: the instance's per-file limit (MEETING_FILE_LIMIT_MB), the same for both sides. */
  limit: number;
  /** Those a file can go to now: keys verified, chat channel open. */
  peers(): { id: string; name: string }[];
  /** Over the pair's sealed chat channel; false when it is not open. */
  send(peerId: string, message: FileMessage): boolean;
  /** The transfer's own channel: null when no link to the peer is open or could be made. */
  openChannel(peerId: string, label: string): Promise<RTCDataChannel | null>;
}

interface Transfer extends TransferView {
  sha256: string;
  fileKey: FileKey;
  /** Sender: the whole file; receiver: the file once complete. */
  data: Uint8Array<ArrayBuffer> | null;
  /** Receiver: the bytes so far, from accept to the last chunk. */
  incoming: ReceiveBuffer | null;
  /** From accept (receiver) or start (sender) to the end: nothing moving for STALL_MS ends it. */
  watch: StallWatch | null;
  channel: RTCDataChannel | null;
  /** Receiver: the index the next message must carry. */
  nextChunk: number;
  /** Sender: every chunk went to the channel; the receiver may close it once it has them all. */
  sentAll: boolean;
  chain: Promise<void>;
}

const FINAL: ReadonlySet<TransferStatus> = new Set(['done', 'declined', 'cancelled', 'failed']);

export class FileTransfers {
  private readonly transfers = new Map<string, Transfer>();
  private views: TransferView[] = [];
  private readonly listeners = new Set<() => void>();
  private progressTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly hooks: FileTransferHooks) {}

  get limit() {
    return this.hooks.limit;
  }

  // ---- for React (useSyncExternalStore) ----
  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };
  getSnapshot = () => this.views;
  recipients = () => this.hooks.peers();

  /** Offers `file` to one person or to everyone present; the bytes go once each accepts. */
  async sendFile(file: File, to: string | 'everyone'): Promise<SendResult> {
    if (file.size === 0) return 'empty';
    if (file.size > this.hooks.limit) return 'too-large';
    const recipients = this.hooks.peers().filter((peer) => to === 'everyone' || peer.id === to);
    if (!recipients.length) return 'nobody';
    // Read once, hashed once, shared by every recipient's transfer.
    const data = new Uint8Array(await file.arrayBuffer());
    const sha256 = await sha256Hex(data);
    let offered = 0;
    for (const peer of recipients) {
      const fileKey = await newFileKey();
      const transfer = this.add({
        id: crypto.randomUUID(),
        direction: 'out',
        peerId: peer.id,
        peerName: peer.name,
        name: safeFileName(file.name),
        size: file.size,
        sha256,
        fileKey,
        data,
        status: 'waiting',
      });
      const offer: FileMessage = { t: 'file-offer', id: transfer.id, name: transfer.name, size: transfer.size, mime: file.type, sha256, key: fileKey.encoded };
      if (this.hooks.send(peer.id, offer)) offered += 1;
      else this.finish(transfer, 'failed', 'interrupted');
    }
    this.publish();
    return offered ? 'sent' : 'nobody';
  }

  accept(key: string) {
    const transfer = this.transfers.get(key);
    if (!transfer || transfer.status !== 'incoming') return;
    try {
      transfer.incoming = new ReceiveBuffer(transfer.size);
    } catch {
      this.hooks.send(transfer.peerId, { t: 'file-decline', id: transfer.id, reason: 'declined' });
      return this.finish(transfer, 'failed', 'memory');
    }
    transfer.status = 'active';
    this.watch(transfer);
    this.hooks.send(transfer.peerId, { t: 'file-accept', id: transfer.id });
    this.publish();
  }

  decline(key: string) {
    const transfer = this.transfers.get(key);
    if (!transfer || transfer.status !== 'incoming') return;
    this.hooks.send(transfer.peerId, { t: 'file-decline', id: transfer.id, reason: 'declined' });
    this.finish(transfer, 'declined', null);
  }

  /** Either side, before the end: the other side is told, the bytes so far are dropped. */
  cancel(key: string) {
    const transfer = this.transfers.get(key);
    if (!transfer || FINAL.has(transfer.status)) return;
    this.hooks.send(transfer.peerId, { t: 'file-cancel', id: transfer.id });
    this.finish(transfer, 'cancelled', null);
  }

  /** The only moment the file touches the disk: the person asked for it. */
  save(key: string) {
    const transfer = this.transfers.get(key);
    if (transfer?.direction === 'in' && transfer.status === 'done' && transfer.data) saveFile(transfer.data, transfer.name);
  }

  /** A received file's bytes, held in memory (the test probe hashes them, probe.ts). */
  receivedBytes(key: string): Uint8Array<ArrayBuffer> | null {
    const transfer = this.transfers.get(key);
    return transfer?.direction === 'in' && transfer.status === 'done' ? transfer.data : null;
  }

  /** Forgets a finished transfer and frees its bytes. */
  dismiss(key: string) {
    const transfer = this.transfers.get(key);
    if (!transfer || !FINAL.has(transfer.status)) return;
    transfer.data = null;
    this.transfers.delete(key);
    this.publish();
  }

  /** A file message from a peer's chat channel (files-feature.ts routes every `file-*` here). */
  receive(peerId: string, raw: unknown) {
    const message = parseFileMessage(raw);
    if (!message) return;
    if (message.t === 'file-offer') return void this.offered(peerId, message);
    if (message.t === 'file-cancel') {
      for (const direction of ['in', 'out'] as const) {
        const transfer = this.transfers.get(keyOf(direction, peerId, message.id));
        if (transfer && !FINAL.has(transfer.status)) {
          if (message.reason === 'stalled') this.finish(transfer, 'failed', 'stalled');
          else this.finish(transfer, 'cancelled', 'by-peer');
        }
      }
      return;
    }
    const transfer = this.transfers.get(keyOf('out', peerId, message.id));
    if (!transfer) return;
    if (message.t === 'file-accept' && transfer.status === 'waiting') return void this.start(transfer);
    if (message.t === 'file-decline' && transfer.status === 'waiting')
      return this.finish(transfer, message.reason === 'too-large' ? 'failed' : 'declined', message.reason === 'too-large' ? 'too-large' : null);
    if (message.t === 'file-received' && transfer.status === 'active') {
      transfer.bytes = transfer.size;
      this.finish(transfer, message.ok ? 'done' : 'failed', message.ok ? null : 'corrupt');
    }
  }

  /** A data channel the peer opened: ours only if it names a transfer we accepted from them. */
  channel(peerId: string, channel: RTCDataChannel) {
    const id = channel.label.startsWith(CHANNEL_PREFIX) ? channel.label.slice(CHANNEL_PREFIX.length) : '';
    const transfer = this.transfers.get(keyOf('in', peerId, id));
    if (!transfer || transfer.status !== 'active' || transfer.channel) return channel.close();
    transfer.channel = channel;
    channel.binaryType = 'arraybuffer';
    channel.onmessage = (event) => {
      const data = event.data instanceof ArrayBuffer ? new Uint8Array(event.data) : null;
      // The channel is ordered: the k-th message must be chunk k. Each is opened at once — one
      // at a time, every decryption waited for the crypto thread's turn, and a busy call made
      // that a 1.5 MB/s transfer (bench/file-transfer.mjs) — and taken in order.
      const opened = data ? openChunk(transfer.fileKey.key, transfer.id, transfer.nextChunk, data) : Promise.resolve(null);
      transfer.nextChunk += 1;
      transfer.chain = transfer.chain.then(async () => this.take(transfer, await opened));
    };
    channel.onclose = () => {
      // What arrived before the close is opened first; a reason the sender gave (stalled, cancelled)
      // comes sealed on the chat channel and may open just after the close: it wins if it does.
      transfer.chain = transfer.chain.then(() => new Promise((resolve) => setTimeout(resolve, REASON_GRACE_MS))).then(() => this.interrupted(transfer));
    };
  }

  /** The peer left the meeting (or was removed): whatever was going on with them stops, and says why. */
  peerGone(peerId: string) {
    for (const transfer of this.transfers.values()) {
      if (transfer.peerId !== peerId) continue;
      if (!FINAL.has(transfer.status)) this.finish(transfer, 'failed', 'peer-left');
      // The channel's close may have come first; the meeting's "leave" says more.
      else if (transfer.problem === 'interrupted') {
        transfer.problem = 'peer-left';
        this.publish();
      }
    }
  }

  /** The call ended: every channel closes, every byte is dropped. */
  close() {
    for (const transfer of this.transfers.values()) {
      transfer.channel?.close();
      transfer.watch?.stop();
      transfer.data = transfer.incoming = null;
    }
    this.transfers.clear();
    this.listeners.clear();
    clearTimeout(this.progressTimer);
  }

  // ---- internals ----

  private add(
    fields: Omit<
      Transfer,
      'key' | 'bytes' | 'reserved' | 'problem' | 'firstByteAt' | 'finishedAt' | 'channel' | 'nextChunk' | 'sentAll' | 'chain' | 'incoming' | 'watch'
    >,
  ): Transfer {
    const transfer: Transfer = {
      ...fields,
      key: keyOf(fields.direction, fields.peerId, fields.id),
      bytes: 0,
      reserved: 0,
      incoming: null,
      watch: null,
      problem: null,
      firstByteAt: null,
      finishedAt: null,
      channel: null,
      nextChunk: 0,
      sentAll: false,
      chain: Promise.resolve(),
    };
    this.transfers.set(transfer.key, transfer);
    return transfer;
  }

  private async offered(peerId: string, offer: Extract<FileMessage, { t: 'file-offer' }>) {
    if (this.transfers.has(keyOf('in', peerId, offer.id))) return;
    const peer = this.hooks.peers().find((candidate) => candidate.id === peerId);
    const fileKey = await fileKeyFrom(offer.key);
    if (!peer || !fileKey) return;
    const transfer = this.add({
      id: offer.id,
      direction: 'in',
      peerId,
      peerName: peer.name,
      name: offer.name,
      size: offer.size,
      sha256: offer.sha256,
      fileKey,
      data: null,
      status: 'incoming',
    });
    // Checked here too, whatever the sender's page says: a larger file is refused unseen.
    if (offer.size > this.hooks.limit) {
      this.hooks.send(peerId, { t: 'file-decline', id: offer.id, reason: 'too-large' });
      return this.finish(transfer, 'failed', 'too-large');
    }
    this.publish();
  }

  /** The receiver said yes: a channel of this transfer's own, then the chunks; the stall watch runs while a link is made for it. */
  private async start(transfer: Transfer) {
    transfer.status = 'active';
    this.watch(transfer);
    this.publish();
    const channel = await this.hooks.openChannel(transfer.peerId, CHANNEL_PREFIX + transfer.id);
    // Cancelled, or the peer gone, while the link was made.
    if (channel && FINAL.has(transfer.status)) return channel.close();
    if (!channel) return this.finish(transfer, 'failed', 'interrupted');
    transfer.channel = channel;
    channel.binaryType = 'arraybuffer';
    channel.bufferedAmountLowThreshold = BUFFER_LOW;
    channel.onopen = () => void sendChunks(transfer, channel, () => this.progress()).catch(() => this.finish(transfer, 'failed', 'interrupted'));
    // After the last chunk the receiver closes it (it has them all); its verdict comes on the chat channel.
    channel.onclose = () => transfer.sentAll || this.interrupted(transfer);
    this.publish();
  }

  /** The next chunk, opened (null: it did not open). */
  private async take(transfer: Transfer, plain: Uint8Array<ArrayBuffer> | null) {
    const incoming = transfer.incoming;
    if (transfer.status !== 'active' || !incoming) return;
    const end = transfer.bytes + (plain?.length ?? 0);
    // Every chunk full but the last, and never past the offered size (the limit holds here too).
    if (!plain || end > transfer.size || (plain.length !== CHUNK_BYTES && end !== transfer.size)) return this.corrupt(transfer);
    transfer.firstByteAt ??= performance.now();
    transfer.watch?.touch();
    try {
      if (!incoming.append(plain)) return this.corrupt(transfer);
    } catch {
      this.hooks.send(transfer.peerId, { t: 'file-cancel', id: transfer.id });
      return this.finish(transfer, 'failed', 'memory');
    }
    transfer.bytes = end;
    transfer.reserved = incoming.reserved;
    this.progress();
    if (end < transfer.size) return;
    transfer.data = incoming.bytes();
    transfer.incoming = null;
    const ok = (await sha256Hex(transfer.data)) === transfer.sha256;
    this.hooks.send(transfer.peerId, { t: 'file-received', id: transfer.id, ok });
    if (!ok) return this.corrupt(transfer);
    this.finish(transfer, 'done', null);
  }

  private corrupt(transfer: Transfer) {
    this.hooks.send(transfer.peerId, { t: 'file-cancel', id: transfer.id });
    this.finish(transfer, 'failed', 'corrupt');
  }

  /** From now to the end, nothing moving for STALL_MS ends the transfer, and the peer is told why. */
  private watch(transfer: Transfer) {
    let buffered = Infinity;
    transfer.watch = new StallWatch(() => {
      if (FINAL.has(transfer.status)) return;
      // A sender's bytes still leaving its buffer (the network is slow): moving, not stalled.
      const left = transfer.direction === 'out' ? (transfer.channel?.bufferedAmount ?? 0) : 0;
      if (left > 0 && left < buffered) {
        buffered = left;
        return transfer.watch?.touch();
      }
      this.hooks.send(transfer.peerId, { t: 'file-cancel', id: transfer.id, reason: 'stalled' });
      this.finish(transfer, 'failed', 'stalled');
    });
    transfer.watch.touch();
    if (transfer.direction === 'in') transfer.reserved = transfer.incoming?.reserved ?? 0;
  }

  private interrupted(transfer: Transfer) {
    if (!FINAL.has(transfer.status)) this.finish(transfer, 'failed', 'interrupted');
  }

  /** The end of a transfer, whichever: the channel closes; the bytes stay only for a received file to save. */
  private finish(transfer: Transfer, status: TransferStatus, problem: TransferProblem | null) {
    if (FINAL.has(transfer.status)) return;
    transfer.status = status;
    transfer.problem = problem;
    transfer.finishedAt = performance.now();
    transfer.watch?.stop();
    transfer.incoming = null;
    const channel = transfer.channel;
    transfer.channel = null;
    if (channel) {
      channel.onmessage = channel.onclose = channel.onopen = null;
      channel.close();
    }
    if (!(transfer.direction === 'in' && status === 'done')) transfer.data = null;
    transfer.reserved = transfer.direction === 'in' ? (transfer.data?.byteLength ?? 0) : 0;
    this.publish();
  }

  /** Progress is many small steps: the screen hears of them at most every PROGRESS_MS. */
  private progress() {
    this.progressTimer ??= setTimeout(() => {
      this.progressTimer = undefined;
      this.publish();
    }, PROGRESS_MS);
  }

  private publish() {
    this.views = [...this.transfers.values()].map(viewOf);
    for (const listener of this.listeners) listener();
  }
}

function keyOf(direction: 'in' | 'out', peerId: string, id: string) {
  return `${direction}:${peerId}:${id}`;
}
