// Keeps each camera we receive through the SFU on the layer we asked for. Janus moves a receiver
// up to a layer only at one of its key frames, and asks the sender for a key frame only when the
// asked layer changes. When the top layer pauses a moment (the sender's bandwidth estimate, a
// busy encoder), Janus falls back to a lower one; once the top layer flows again it waits for a
// key frame that libwebrtc, which sends none unasked, may never send: the tile stays blurred for
// the rest of the call (seen in meeting-sfu.spec.ts: 360p for 45 s while the sender sent 720p).
// Asking for the same layer again makes Janus request one. The asking stops after a few tries:
// a sender whose encoder does not send that layer at all (a 640×360 camera gets two layers from
// libwebrtc, not three) would otherwise be made to send key frames every few seconds for good.
// Janus's next report of a change starts it again.

/** The waits before each new ask, doubling; after the last the watch gives up until Janus reports a change. */
export const NUDGE_WAITS_MS = [2000, 4000, 8000, 16_000] as const;
export const NUDGE_FIRST_MS = NUDGE_WAITS_MS[0];

type Timer = ReturnType<typeof setTimeout>;

export class LayerWatch {
  /** The layer asked of each stream, by mid (none while paused). */
  private readonly asked = new Map<string, number>();
  /** The layer Janus says it forwards now, by mid (its `substream` events). */
  private readonly forwarded = new Map<string, number>();
  private readonly waits = new Map<string, Timer>();

  /** `ask` sends the layer again; it runs only while the stream is below what was asked. */
  constructor(private readonly ask: (mid: string, layer: number) => void) {}

  /** We asked Janus for this layer of the stream ('off': paused, nothing to watch). */
  asking(mid: string, layer: number | 'off') {
    this.stop(mid);
    if (layer === 'off') this.asked.delete(mid);
    else this.asked.set(mid, layer);
    this.check(mid, 0);
  }

  /** Janus forwards this layer of the stream now. */
  forwarding(mid: string, layer: number) {
    this.forwarded.set(mid, layer);
    this.check(mid, 0);
  }

  /** The subscription was described anew: every stream starts over. */
  reset() {
    for (const mid of [...this.waits.keys()]) this.stop(mid);
    this.asked.clear();
    this.forwarded.clear();
  }

  /** Whether the stream is below the layer asked of it (unknown counts as below). */
  private below(mid: string): boolean {
    const asked = this.asked.get(mid);
    return asked !== undefined && (this.forwarded.get(mid) ?? -1) < asked;
  }

  /** Asks again after the `attempt`-th wait while the stream stays below its layer. */
  private check(mid: string, attempt: number) {
    if (!this.below(mid)) return this.stop(mid);
    if (this.waits.has(mid) || attempt >= NUDGE_WAITS_MS.length) return;
    const timer = setTimeout(() => {
      this.waits.delete(mid);
      const asked = this.asked.get(mid);
      if (asked === undefined || !this.below(mid)) return;
      this.ask(mid, asked);
      this.check(mid, attempt + 1);
    }, NUDGE_WAITS_MS[attempt]);
    this.waits.set(mid, timer);
  }

  private stop(mid: string) {
    clearTimeout(this.waits.get(mid));
    this.waits.delete(mid);
  }
}

/** The layer a VideoRoom subscriber event says Janus forwards now, with its stream's mid. */
export function forwardedLayer(data: Record<string, unknown> | undefined): { mid: string; layer: number } | null {
  if (typeof data?.mid !== 'string' || typeof data.substream !== 'number') return null;
  return { mid: data.mid, layer: data.substream };
}
