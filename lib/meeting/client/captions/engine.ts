// What captions ask of a speech recogniser (docs/meetings.md "Captions"): the browser's on-device
// Web Speech recognition today (web-speech-engine.ts); a WebAssembly model the operator places on
// the server could take its place later without the call noticing. The tests drive the same
// interface with a stand-in that says known text (stand-in-engine.ts, installed only by the test probe).

/** Whether the engine can caption this language on this device now, after a download, or not at all. */
export type EngineAvailability = 'available' | 'downloadable' | 'unavailable';

export interface CaptionEvents {
  /** The words so far of the line being spoken (replaced by the next partial or the final). */
  partial(text: string): void;
  /** The line as recognised at its end. */
  final(text: string): void;
  /** 'unavailable': recognition on this device cannot run (nothing was started); 'failed': it stopped on an error. */
  error(reason: 'unavailable' | 'failed'): void;
}

export interface CaptionEngine {
  readonly kind: string;
  /** Asks without starting anything (no microphone, no download). */
  availability(language: string): Promise<EngineAvailability>;
  /** Fetches what the engine needs for the language (a model, never audio); true when it can then start. */
  prepare(language: string): Promise<boolean>;
  /** Listens to `microphone` (or the default one where the engine cannot be given a track) until stop(). */
  start(language: string, events: CaptionEvents, microphone: MediaStreamTrack | null): void;
  stop(): void;
}
