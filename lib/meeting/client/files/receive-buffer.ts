// A received file's bytes, in memory until the person saves them (transfers.ts). The offer only
// declares a size, and the sender is not trusted: reserving it all on "Accept" let one offer take
// up to the per-file limit (100 MB) before a byte arrived. The buffer starts small and grows as
// chunks arrive, so what it holds stays within a small multiple of what really came.

/** What an accepted transfer reserves before its first chunk (or the whole file, if smaller). */
export const INITIAL_RESERVE = 1024 * 1024;

export class ReceiveBuffer {
  private data: Uint8Array<ArrayBuffer>;
  /** Bytes written so far. */
  length = 0;

  /** `size`: the offer's declared size, which the bytes may never pass. */
  constructor(readonly size: number) {
    this.data = new Uint8Array(Math.min(size, INITIAL_RESERVE));
  }

  /** Bytes held in memory for this file now. */
  get reserved(): number {
    return this.data.byteLength;
  }

  /**
   * Adds the next bytes; false (nothing written) past the declared size. A full buffer doubles,
   * and takes the whole declared size once that is at most twice the new one: a file of S bytes
   * costs at most S + S/2 during its last copy, and an offer that lies about its size holds at
   * most four times what its sender really sent (or INITIAL_RESERVE).
   * @throws RangeError when the device cannot give the memory.
   */
  append(bytes: Uint8Array): boolean {
    const end = this.length + bytes.length;
    if (end > this.size) return false;
    if (end > this.data.byteLength) this.grow(end);
    this.data.set(bytes, this.length);
    this.length = end;
    return true;
  }

  /** The bytes received, complete once `length === size` (then the buffer is exactly the file). */
  bytes(): Uint8Array<ArrayBuffer> {
    return this.length === this.data.byteLength ? this.data : this.data.subarray(0, this.length);
  }

  private grow(needed: number) {
    let capacity = Math.max(needed, this.data.byteLength * 2);
    if (capacity * 2 >= this.size) capacity = this.size;
    const next = new Uint8Array(Math.min(capacity, this.size));
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
}
