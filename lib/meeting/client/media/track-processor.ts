// One seam per input slot (camera, microphone) for what processes a capture before it is sent
// (issue 49 point 3): noise suppression today (noise-suppression.ts), the camera's background
// effects (background/pipeline.ts has the same shape), captions reading the microphone later. One
// ownership rule: the session holds the raw capture; senders and the recorder get the processed
// track; a processor never stops the capture it reads, and the session stops each processor once.

export type InputSlot = 'audio' | 'camera';

export interface TrackProcessor {
  /** The capture it reads: the session's, never stopped by the processor. */
  readonly raw: MediaStreamTrack;
  /** What the senders and the recorder get instead of the capture. */
  readonly track: MediaStreamTrack;
  /** Takes the processor down, its own track with it. */
  stop(): void;
}

type PerSlot<T> = Record<InputSlot, T>;

/** The raw capture of each slot and at most one processor on it. Plain bookkeeping: the session sends and stops. */
export class InputSlots {
  private readonly raws: PerSlot<MediaStreamTrack | null>;
  private readonly processors: PerSlot<TrackProcessor | null> = { audio: null, camera: null };
  private readonly stopped = new WeakSet<TrackProcessor>();

  constructor(raw: PerSlot<MediaStreamTrack | null>) {
    this.raws = { ...raw };
  }

  capture(slot: InputSlot): MediaStreamTrack | null {
    return this.raws[slot];
  }

  processor(slot: InputSlot): TrackProcessor | null {
    return this.processors[slot];
  }

  /** What the senders carry: the processed track, or the capture itself. */
  output(slot: InputSlot): MediaStreamTrack | null {
    return this.processors[slot]?.track ?? this.raws[slot];
  }

  /** Another capture: a processor of the old one goes with it (returned, to stop once the new output is sent). */
  setRaw(slot: InputSlot, track: MediaStreamTrack | null): { old: MediaStreamTrack | null; dropped: TrackProcessor | null } {
    const old = this.raws[slot];
    const dropped = old === track ? null : this.processors[slot];
    this.raws[slot] = track;
    if (dropped) this.processors[slot] = null;
    return { old, dropped };
  }

  /** A processor on the slot's capture now (null: none). One made from another capture is refused. */
  setProcessor(slot: InputSlot, processor: TrackProcessor | null): { accepted: boolean; previous: TrackProcessor | null } {
    if (processor && processor.raw !== this.raws[slot]) return { accepted: false, previous: null };
    const previous = this.processors[slot];
    this.processors[slot] = processor;
    return { accepted: true, previous: previous === processor ? null : previous };
  }

  /** Stops a processor, once whoever asks. */
  stop(processor: TrackProcessor | null) {
    if (!processor || this.stopped.has(processor)) return;
    this.stopped.add(processor);
    processor.stop();
  }

  /** The call's end: every processor, then every capture. */
  stopAll() {
    for (const slot of ['audio', 'camera'] as const) {
      this.stop(this.processors[slot]);
      this.processors[slot] = null;
      this.raws[slot]?.stop();
    }
  }
}
