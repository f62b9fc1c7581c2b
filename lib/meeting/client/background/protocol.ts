// Messages between the page and the background worker (background-worker.ts).
import type { BlurStrength } from './choice';
import type { BackgroundAssetFile } from './assets';

/** An effect as the worker draws it: a blur, or a picture already decoded on the page. */
export type WorkerEffect = { kind: 'blur'; strength: BlurStrength } | { kind: 'image'; bitmap: ImageBitmap };

export type ToWorker =
  /** Camera frames come as a stream (Chromium's MediaStreamTrackProcessor) or one by one ('frame'). */
  | {
      type: 'start';
      assets: Record<BackgroundAssetFile, string>;
      effect: WorkerEffect;
      readable?: ReadableStream<VideoFrame>;
      writable?: WritableStream<VideoFrame>;
    }
  | { type: 'effect'; effect: WorkerEffect }
  | { type: 'frame'; bitmap: ImageBitmap };

export interface BackgroundStats {
  /** Frames drawn since the start. */
  frames: number;
  /** Mean milliseconds per frame over the last second: segmentation (every other frame) and drawing. */
  msPerFrame: number;
  /** Mean milliseconds of one segmentation (scaling the frame down, the model, the mask). */
  msSegmenting: number;
  width: number;
  height: number;
}

export type FromWorker =
  { type: 'ready' } | { type: 'failed'; reason: string } | { type: 'frame'; bitmap: ImageBitmap } | { type: 'stats'; stats: BackgroundStats };
