// What the screen and the probe read of a file transfer: plain types, no crypto or channels.

export type TransferStatus = 'waiting' | 'incoming' | 'active' | 'done' | 'declined' | 'cancelled' | 'failed';
/**
 * Why a transfer stopped: `corrupt` = a chunk or the SHA-256 did not check out; `stalled` =
 * nothing moved for STALL_MS (stall-watch.ts), noticed by either side.
 */
export type TransferProblem = 'too-large' | 'peer-left' | 'interrupted' | 'corrupt' | 'memory' | 'by-peer' | 'stalled';

export interface TransferView {
  key: string;
  id: string;
  direction: 'out' | 'in';
  peerId: string;
  peerName: string;
  name: string;
  size: number;
  /** Bytes through so far: sent and off our buffer, or received and opened. */
  bytes: number;
  /**
   * Receiver: bytes of memory held for the file now. It grows with what arrives
   * (receive-buffer.ts), never from the offer's declared size alone. Sender: 0.
   */
  reserved: number;
  status: TransferStatus;
  problem: TransferProblem | null;
  /** Page clock: the first chunk, and the end (checked on arrival, confirmed to the sender). */
  firstByteAt: number | null;
  finishedAt: number | null;
}

/** What became of "Send a file". */
export type SendResult = 'sent' | 'too-large' | 'empty' | 'nobody';

/** What the screen reads of a transfer: never its bytes, key or channel. */
export function viewOf(transfer: TransferView): TransferView {
  const { key, id, direction, peerId, peerName, name, size, bytes, reserved, status, problem, firstByteAt, finishedAt } = transfer;
  return { key, id, direction, peerId, peerName, name, size, bytes, reserved, status, problem, firstByteAt, finishedAt };
}
