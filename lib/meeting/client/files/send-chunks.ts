// The sender's side of a transfer once the receiver accepted (transfers.ts): the file in sealed
// chunks (file-crypto.ts) on the transfer's own data channel, never more than BUFFER_HIGH bytes
// ahead of the network (bufferedAmountLowThreshold).
import { drained } from './drained';
import { CHUNK_BYTES, chunkCount, sealChunk, type FileKey } from './file-crypto';
import type { StallWatch } from './stall-watch';
import type { TransferStatus } from './transfer-view';

/** Refill the channel's buffer when it falls below this... */
export const BUFFER_LOW = 1024 * 1024;
/** ...and stop adding once it holds this much. */
const BUFFER_HIGH = 4 * 1024 * 1024;
/** Chunks sealed ahead of the one being sent (1 MB at most). */
const SEAL_AHEAD = 16;

/** What sending reads and moves of a transfer. */
export interface OutgoingTransfer {
  id: string;
  size: number;
  fileKey: FileKey;
  data: Uint8Array<ArrayBuffer> | null;
  status: TransferStatus;
  bytes: number;
  firstByteAt: number | null;
  sentAll: boolean;
  watch: StallWatch | null;
}

/** Sends every chunk, then waits for the buffer to empty; the receiver's "file-received" ends the transfer. */
export async function sendChunks(transfer: OutgoingTransfer, channel: RTCDataChannel, progress: () => void) {
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
    // The network took what we gave it: moving (the receiver's stall watch is its own).
    transfer.watch?.touch();
    channel.send(sealed);
    transfer.bytes = Math.max(0, Math.min(transfer.size, (index + 1) * CHUNK_BYTES) - channel.bufferedAmount);
    progress();
  }
  // The rest leaves the buffer; the receiver's "file-received" ends the transfer.
  transfer.sentAll = true;
  channel.bufferedAmountLowThreshold = 0;
  if (channel.bufferedAmount > 0) await drained(channel);
  transfer.watch?.touch();
  if (transfer.status === 'active') {
    transfer.bytes = transfer.size;
    progress();
  }
}
