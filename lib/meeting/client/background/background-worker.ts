// The background worker: every camera frame is segmented and drawn here, off the page's main
// thread. Frames come as a stream (Chromium: MediaStreamTrackProcessor on the page, its stream
// transferred here, and a MediaStreamTrackGenerator's stream back) or one ImageBitmap at a time
// (the canvas path of other browsers, pipeline.ts).
import { Compositor } from './compositor';
import type { BackgroundStats, FromWorker, ToWorker, WorkerEffect } from './protocol';
import { Segmenter } from './segmenter';
import { YuvCompositor } from './yuv-compositor';

// The worker's global scope, typed by hand (the project's lib is "dom", not "webworker").
interface WorkerScope {
  onmessage: ((event: MessageEvent<ToWorker>) => void) | null;
  postMessage(message: FromWorker, transfer?: Transferable[]): void;
}
const scope = self as unknown as WorkerScope;

let segmenter: Segmenter | null = null;
/** The stream path's compositor (Chromium's frames are I420 or NV12). */
let planes: YuvCompositor | null = null;
/** The canvas compositor: frames of other formats, and the ImageBitmaps of the canvas path. */
let compositor: Compositor | null = null;
let effect: WorkerEffect | null = null;
let warned = false;
let lastSegmentMs = 0;
const stats: BackgroundStats = { frames: 0, msPerFrame: 0, msSegmenting: 0, width: 0, height: 0 };
let windowStart = performance.now();
let windowFrames = 0;
let windowMs = 0;
let windowSegmentMs = 0;
let windowSegments = 0;

/** Every other frame is segmented; the others reuse its mask (compositor.ts). */
const segmentsThis = () => stats.frames % 2 === 0;

function count(started: number, width: number, height: number) {
  const now = performance.now();
  stats.frames += 1;
  windowFrames += 1;
  windowMs += now - started;
  if (lastSegmentMs > 0) {
    windowSegmentMs += lastSegmentMs;
    windowSegments += 1;
  }
  if (now - windowStart < 1000) return;
  Object.assign(stats, { msPerFrame: windowMs / windowFrames, msSegmenting: windowSegments ? windowSegmentMs / windowSegments : 0, width, height });
  scope.postMessage({ type: 'stats', stats: { ...stats } });
  windowStart = now;
  windowFrames = 0;
  windowMs = 0;
  windowSegmentMs = 0;
  windowSegments = 0;
}

/**
 * A camera frame of the stream: drawn on its own YUV planes (yuv-compositor.ts) when its format
 * allows, else on the canvas (compositor.ts, made the first time a frame needs it).
 */
async function processFrame(frame: VideoFrame): Promise<VideoFrame> {
  const started = performance.now();
  const width = frame.displayWidth;
  const height = frame.displayHeight;
  const segment = segmentsThis();
  try {
    let result = await planes!.render(frame, segment).catch((error: unknown) => {
      if (!warned) console.warn('background: drawn on canvas', error);
      warned = true;
      return null;
    });
    if (result) lastSegmentMs = planes!.lastSegmentMs;
    else {
      const canvas = canvasCompositor().render(frame, width, height, segment);
      lastSegmentMs = canvasCompositor().lastSegmentMs;
      result = new VideoFrame(canvas, { timestamp: frame.timestamp, duration: frame.duration ?? undefined });
    }
    count(started, width, height);
    return result;
  } finally {
    frame.close();
  }
}

function canvasCompositor(): Compositor {
  if (!compositor) {
    compositor = new Compositor(segmenter!);
    compositor.setEffect(effect!);
  }
  return compositor;
}

function setEffect(next: WorkerEffect) {
  const previous = effect;
  effect = next;
  compositor?.setEffect(next);
  planes?.setEffect(next);
  if (previous?.kind === 'image' && previous !== next) previous.bitmap.close();
}

async function start(message: Extract<ToWorker, { type: 'start' }>) {
  try {
    segmenter = await Segmenter.load({
      loader: message.assets['tflite-simd.mjs'],
      wasm: message.assets['tflite-simd.wasm'],
      model: message.assets['selfie-landscape.tflite'],
    });
    planes = new YuvCompositor(segmenter);
    setEffect(message.effect);
  } catch (error) {
    scope.postMessage({ type: 'failed', reason: error instanceof Error ? error.message : String(error) });
    return;
  }
  scope.postMessage({ type: 'ready' });
  if (message.readable && message.writable) {
    // Ends when the camera track ends or the page stops the generator: nothing to clean up here.
    void message.readable
      .pipeThrough(new TransformStream<VideoFrame, VideoFrame>({ transform: async (frame, controller) => controller.enqueue(await processFrame(frame)) }))
      .pipeTo(message.writable)
      .catch(() => undefined);
  }
}

scope.onmessage = ({ data }) => {
  if (data.type === 'start') void start(data);
  else if (data.type === 'effect') setEffect(data.effect);
  else if (data.type === 'frame') {
    if (!segmenter) return data.bitmap.close();
    const started = performance.now();
    const { width, height } = data.bitmap;
    const canvas = canvasCompositor().render(data.bitmap, width, height, segmentsThis());
    lastSegmentMs = canvasCompositor().lastSegmentMs;
    data.bitmap.close();
    const bitmap = canvas.transferToImageBitmap();
    count(started, width, height);
    scope.postMessage({ type: 'frame', bitmap }, [bitmap]);
  }
};
