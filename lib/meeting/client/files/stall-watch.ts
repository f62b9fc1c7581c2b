// A transfer that stops moving ends (docs/meetings.md "Files"): a sender that stops sending, or a
// receiver that stops reading, would otherwise hold the other side's transfer — and the bytes it
// reserved — for as long as the call lasts.

/**
 * Nothing moved for this long: the transfer is over. A 64 KB chunk takes about 5 s at 100 kbit/s,
 * and a slow link still moves one every few seconds; 30 s of nothing is a sender or receiver
 * that stopped, not one that is slow.
 */
export const STALL_MS = 30_000;

/** Calls `onStall` once `ms` pass without a touch() (while started). */
export class StallWatch {
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly onStall: () => void,
    private readonly ms = STALL_MS,
  ) {}

  /** Something moved (or the transfer started): the count starts again. */
  touch() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.onStall();
    }, this.ms);
  }

  /** The transfer ended: no more calls. */
  stop() {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  get running(): boolean {
    return this.timer !== undefined;
  }
}
