// Files between participants, end to end encrypted (docs/meetings.md "Files"). Loaded only when
// someone opens "Send a file" or an offer arrives (session.ts files()), so a call that never
// sends one never downloads this code.
//
// One transfer = one file to one person. The offer (name, size, SHA-256, a fresh key) goes over
// the pair's sealed chat channel; nothing moves until the receiver accepts. Then the sender opens
// an ordered data channel for this transfer alone — chat stays responsive — and sends the file in
// sealed chunks (file-crypto.ts), never more than BUFFER_HIGH bytes ahead of the network
// (bufferedAmountLowThreshold). The receiver keeps the bytes in memory, checks the SHA-256 once
// the last arrived, and writes nothing to disk until the person saves it.
import { CHUNK_BYTES, chunkCount, fileKeyFrom, newFileKey, openChunk, sealChunk, sha256Hex, type FileKey } from './file-crypto';
import { parseFileMessage, safeFileName, type FileMessage } from './file-messages';
import type { SendResult, TransferProblem, TransferStatus, TransferView } from './transfer-view';

export type { SendResult, TransferProblem, TransferStatus, TransferView };

/** Refill the channel's buffer when it falls below this... */
const BUFFER_LOW = 1024 * 1024;
/** ...and stop adding once it holds this much. */
const BUFFER_HIGH = 4 * 1024 * 1024;
/** Chunks sealed ahead of the one being sent (1 MB at most). */
const SEAL_AHEAD = 16;
/** The screen hears of progress at most this often. */
const PROGRESS_MS = 100;
const CHANNEL_PREFIX = 'file:';

export interface FileTransferHooks {
  /** Bytes: the instance's per-file limit (MEETING_FILE_LIMIT_MB), the same for both sides. */
  limit: number;
  /** Those a file can go to now: keys verified, chat channel open. */
  peers(): { id: string; name: string }[];
  /** Over the pair's sealed chat channel; false when it is not open. */
  send(peerId: string, message: FileMessage): boolean;
  openChannel(peerId: string, label: string): RTCDataChannel | null;
}

interface Transfer extends TransferView {
  mime: string;
  sha256: string;
  fileKey: FileKey;
  /** Sender: the whole file; receiver: the bytes so far (allocated on accept). */
  data: Uint8Array<ArrayBuffer> | null;
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
        mime: file.type,
        sha256,
        fileKey,
        data,
        status: 'waiting',
      });
      const message: FileMessage = { t: 'file-offer', id: transfer.id, name: transfer.name, size: transfer.size, mime: file.type, sha256, key: fileKey.encoded };
      if (this.hooks.send(peer.id, message)) offered += 1;
      else this.finish(transfer, 'failed', 'interrupted');
    }
    this.publish();
    return offered ? 'sent' : 'nobody';
  }

  accept(key: string) {
    const transfer = this.transfers.get(key);
    if (!transfer || transfer.status !== 'incoming') return;
    try {
      transfer.data = new Uint8Array(transfer.size);
    } catch {
      this.hooks.send(transfer.peerId, { t: 'file-decline', id: transfer.id, reason: 'declined' });
      return this.finish(transfer, 'failed', 'memory');
    }
    transfer.status = 'active';
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
    if (!transfer || transfer.direction !== 'in' || transfer.status !== 'done' || !transfer.data) return;
    const url = URL.createObjectURL(new Blob([transfer.data], { type: transfer.mime }));
    const link = document.createElement('a');
    link.href = url;
    link.download = transfer.name;
    link.rel = 'noopener';
    document.body.append(link);
    link.click();
    link.remove();
    // The browser has started reading it by then; a revoked URL frees the copy it holds.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
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

  /** A file message from a peer's chat channel (session.ts routes every `file-*` here). */
  receive(peerId: string, raw: unknown) {
    const message = parseFileMessage(raw);
    if (!message) return;
    if (message.t === 'file-offer') return void this.offered(peerId, message);
    if (message.t === 'file-cancel') {
      for (const direction of ['in', 'out'] as const) {
        const transfer = this.transfers.get(keyOf(direction, peerId, message.id));
        if (transfer && !FINAL.has(transfer.status)) this.finish(transfer, 'cancelled', 'by-peer');
      }
      return;
    }
    const transfer = this.transfers.get(keyOf('out', peerId, message.id));
    if (!transfer) return;
    if (message.t === 'file-accept' && transfer.status === 'waiting') return this.start(transfer);
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
      // What arrived before the close is opened first.
      transfer.chain = transfer.chain.then(() => this.interrupted(transfer));
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
      transfer.data = null;
    }
    this.transfers.clear();
    this.listeners.clear();
    clearTimeout(this.progressTimer);
  }

  // ---- internals ----

  private add(fields: Omit<Transfer, 'key' | 'bytes' | 'problem' | 'firstByteAt' | 'finishedAt' | 'channel' | 'nextChunk' | 'sentAll' | 'chain'>): Transfer {
    const transfer: Transfer = {
      ...fields,
      key: keyOf(fields.direction, fields.peerId, fields.id),
      bytes: 0,
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
    const transfer = this.add({ id: offer.id, direction: 'in', peerId, peerName: peer.name, name: offer.name, size: offer.size, mime: offer.mime, sha256: offer.sha256, fileKey, data: null, status: 'incoming' });
    // Checked here too, whatever the sender's page says: a larger file is refused unseen.
    if (offer.size > this.hooks.limit) {
      this.hooks.send(peerId, { t: 'file-decline', id: offer.id, reason: 'too-large' });
      return this.finish(transfer, 'failed', 'too-large');
    }
    this.publish();
  }

  /** The receiver said yes: a channel of this transfer's own, then the chunks. */
  private start(transfer: Transfer) {
    const channel = this.hooks.openChannel(transfer.peerId, CHANNEL_PREFIX + transfer.id);
    if (!channel) return this.finish(transfer, 'failed', 'interrupted');
    transfer.status = 'active';
    transfer.channel = channel;
    channel.binaryType = 'arraybuffer';
    channel.bufferedAmountLowThreshold = BUFFER_LOW;
    channel.onopen = () => void this.pump(transfer, channel).catch(() => this.finish(transfer, 'failed', 'interrupted'));
    // After the last chunk the receiver closes it (it has them all); its verdict comes on the chat channel.
    channel.onclose = () => transfer.sentAll || this.interrupted(transfer);
    this.publish();
  }

  private async pump(transfer: Transfer, channel: RTCDataChannel) {
    const data = transfer.data!;
    const count = chunkCount(transfer.size);
    const seal = (index: number) => sealChunk(transfer.fileKey.key, transfer.id, index, data.subarray(index * CHUNK_BYTES, (index + 1) * CHUNK_BYTES));
    transfer.firstByteAt = performance.now();
    // SEAL_AHEAD chunks are being sealed while the channel sends: one at a time, each waited
    // for the crypto thread's turn behind the call's frames (1.5 MB/s, bench/file-transfer.mjs).
    const sealing: Promise<Uint8Array<ArrayBuffer>>[] = [];
    let queued = 0;
    const sealAhead = () => {
      while (queued < count && sealing.length < SEAL_AHEAD) sealing.push(seal(queued++));
    };
    sealAhead();
    for (let index = 0; index < count; index += 1) {
      const sealed = await sealing.shift()!;
      sealAhead();
      if (channel.bufferedAmount > BUFFER_HIGH) await drained(channel);
      if (transfer.status !== 'active' || channel.readyState !== 'open') return;
      channel.send(sealed);
      transfer.bytes = Math.max(0, Math.min(transfer.size, (index + 1) * CHUNK_BYTES) - channel.bufferedAmount);
      this.progress();
    }
    // The rest leaves the buffer; the receiver's "file-received" ends the transfer.
    transfer.sentAll = true;
    channel.bufferedAmountLowThreshold = 0;
    if (channel.bufferedAmount > 0) await drained(channel);
    if (transfer.status === 'active') {
      transfer.bytes = transfer.size;
      this.progress();
    }
  }

  /** The next chunk, opened (null: it did not open). */
  private async take(transfer: Transfer, plain: Uint8Array<ArrayBuffer> | null) {
    if (transfer.status !== 'active' || !transfer.data) return;
    const end = transfer.bytes + (plain?.length ?? 0);
    // Every chunk full but the last, and never past the offered size (the limit holds here too).
    if (!plain || end > transfer.size || (plain.length !== CHUNK_BYTES && end !== transfer.size)) return this.corrupt(transfer);
    transfer.firstByteAt ??= performance.now();
    transfer.data.set(plain, transfer.bytes);
    transfer.bytes = end;
    this.progress();
    if (end < transfer.size) return;
    const ok = (await sha256Hex(transfer.data)) === transfer.sha256;
    this.hooks.send(transfer.peerId, { t: 'file-received', id: transfer.id, ok });
    if (!ok) return this.corrupt(transfer);
    this.finish(transfer, 'done', null);
  }

  private corrupt(transfer: Transfer) {
    this.hooks.send(transfer.peerId, { t: 'file-cancel', id: transfer.id });
    this.finish(transfer, 'failed', 'corrupt');
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
    const channel = transfer.channel;
    transfer.channel = null;
    if (channel) {
      channel.onmessage = channel.onclose = channel.onopen = null;
      channel.close();
    }
    if (!(transfer.direction === 'in' && status === 'done')) transfer.data = null;
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
    this.views = [...this.transfers.values()].map(
      ({ key, id, direction, peerId, peerName, name, size, bytes, status, problem, firstByteAt, finishedAt }): TransferView => ({
        key, id, direction, peerId, peerName, name, size, bytes, status, problem, firstByteAt, finishedAt,
      }),
    );
    for (const listener of this.listeners) listener();
  }
}

function keyOf(direction: 'in' | 'out', peerId: string, id: string) {
  return `${direction}:${peerId}:${id}`;
}

/** Resolves when the channel's buffer falls below its threshold, or the channel closes. */
function drained(channel: RTCDataChannel): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      channel.removeEventListener('bufferedamountlow', done);
      channel.removeEventListener('close', done);
      resolve();
    };
    channel.addEventListener('bufferedamountlow', done);
    channel.addEventListener('close', done);
  });
}
