// The camera's background pipeline: loaded the first time a person turns an effect on
// (apply.ts). The raw camera track goes to the background worker; what comes back is a new
// track that replaces the camera on every link (replaceTrack, no renegotiation).
import { backgroundAssetUrl, BACKGROUND_ASSET_FILES, type BackgroundAssetFile } from './assets';
import { bundledImageUrl, type BackgroundChoice } from './choice';
import { loadOwnImage } from './own-image';
import type { BackgroundStats, FromWorker, ToWorker, WorkerEffect } from './protocol';

export interface BackgroundPipeline {
  /** The track to send and show. Stopping it also stops the camera (as stopping a camera would). */
  track: MediaStreamTrack;
  /** The camera itself. */
  raw: MediaStreamTrack;
  setEffect(choice: BackgroundChoice): Promise<void>;
  stats(): BackgroundStats | null;
  /** Stops the effect; the camera goes on (it is sent plain again). */
  close(): void;
}

export class BackgroundUnavailable extends Error {}

// Chromium's insertable streams for raw video; not yet in the DOM typings this project uses.
declare const MediaStreamTrackProcessor: { new (init: { track: MediaStreamTrack }): { readable: ReadableStream<VideoFrame> } } | undefined;
declare const MediaStreamTrackGenerator: { new (init: { kind: 'video' }): MediaStreamTrack & { writable: WritableStream<VideoFrame> } } | undefined;

const streamsSupported = () => typeof MediaStreamTrackProcessor !== 'undefined' && typeof MediaStreamTrackGenerator !== 'undefined';

async function decode(choice: BackgroundChoice): Promise<WorkerEffect> {
  if (choice.kind === 'blur') return { kind: 'blur', strength: choice.strength };
  if (choice.kind !== 'image') throw new Error('no effect');
  const blob =
    choice.image === 'own' ? await loadOwnImage() : await fetch(bundledImageUrl(choice.image)).then((response) => (response.ok ? response.blob() : null));
  if (!blob) throw new BackgroundUnavailable('image');
  return { kind: 'image', bitmap: await createImageBitmap(blob) };
}

const transfers = (effect: WorkerEffect): Transferable[] => (effect.kind === 'image' ? [effect.bitmap] : []);

export async function startPipeline(raw: MediaStreamTrack, choice: BackgroundChoice): Promise<BackgroundPipeline> {
  if (typeof OffscreenCanvas === 'undefined' || typeof Worker === 'undefined') throw new BackgroundUnavailable('browser');
  const effect = await decode(choice);
  const worker = new Worker(new URL('./background-worker.ts', import.meta.url), { type: 'module' });
  const assets = Object.fromEntries(Object.keys(BACKGROUND_ASSET_FILES).map((file) => [file, backgroundAssetUrl(file as BackgroundAssetFile)])) as Record<
    BackgroundAssetFile,
    string
  >;
  let latest: BackgroundStats | null = null;
  const ready = new Promise<void>((resolve, reject) => {
    worker.addEventListener('message', ({ data }: MessageEvent<FromWorker>) => {
      if (data.type === 'ready') resolve();
      else if (data.type === 'failed') reject(new BackgroundUnavailable(data.reason));
      else if (data.type === 'stats') latest = data.stats;
    });
    worker.addEventListener('error', (event) => reject(new BackgroundUnavailable(event.message)));
  });
  const post = (message: ToWorker, transfer: Transferable[] = []) => worker.postMessage(message, transfer);

  let output: MediaStreamTrack;
  let stopOutput: () => void;
  if (streamsSupported()) {
    const processor = new MediaStreamTrackProcessor!({ track: raw });
    const generator = new MediaStreamTrackGenerator!({ kind: 'video' });
    post({ type: 'start', assets, effect, readable: processor.readable, writable: generator.writable }, [
      processor.readable,
      generator.writable,
      ...transfers(effect),
    ]);
    output = generator;
    stopOutput = MediaStreamTrack.prototype.stop.bind(generator);
  } else {
    post({ type: 'start', assets, effect }, transfers(effect));
    ({ output, stop: stopOutput } = canvasPath(raw, worker, post));
  }
  try {
    await ready;
  } catch (error) {
    worker.terminate();
    stopOutput();
    throw error;
  }

  const close = () => {
    worker.terminate();
    stopOutput();
  };
  // Everything that turns a camera off calls stop() on the track it sends: with an effect, that
  // track must release the camera too.
  output.stop = () => {
    close();
    raw.stop();
  };
  // An unplugged camera ends the raw track; whoever watches the sent track must hear of it.
  raw.addEventListener('ended', () => {
    close();
    output.dispatchEvent(new Event('ended'));
  });
  return {
    track: output,
    raw,
    stats: () => latest,
    close,
    async setEffect(next) {
      const decoded = await decode(next);
      post({ type: 'effect', effect: decoded }, transfers(decoded));
    },
  };
}

/**
 * Browsers without MediaStreamTrackProcessor (Firefox, Safari): the camera plays in a detached
 * video element, frames go to the worker one at a time as ImageBitmaps, and come back onto a
 * canvas whose captureStream() is the track sent.
 */
function canvasPath(raw: MediaStreamTrack, worker: Worker, post: (message: ToWorker, transfer?: Transferable[]) => void) {
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.srcObject = new MediaStream([raw]);
  void video.play().catch(() => undefined);
  const { width = 1280, height = 720, frameRate = 30 } = raw.getSettings();
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const bitmaps = canvas.getContext('bitmaprenderer');
  const output = canvas.captureStream(frameRate).getVideoTracks()[0]!;
  let stopped = false;
  let inFlight = false;
  const next = async () => {
    if (stopped) return;
    if (!inFlight && video.readyState >= 2) {
      inFlight = true;
      const bitmap = await createImageBitmap(video);
      post({ type: 'frame', bitmap }, [bitmap]);
    }
    window.setTimeout(() => void next(), 1000 / frameRate);
  };
  worker.addEventListener('message', ({ data }: MessageEvent<FromWorker>) => {
    if (data.type !== 'frame') return;
    inFlight = false;
    if (stopped) return data.bitmap.close();
    bitmaps?.transferFromImageBitmap(data.bitmap);
  });
  void next();
  const stopTrack = MediaStreamTrack.prototype.stop.bind(output);
  return {
    output,
    stop: () => {
      stopped = true;
      video.srcObject = null;
      stopTrack();
    },
  };
}
