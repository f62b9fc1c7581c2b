// Draws one camera frame with its background blurred or replaced, on OffscreenCanvas 2D in the
// background worker: the model's mask cuts the person out of the full-size frame, and the
// background is drawn behind. Blur is done at a fraction of the size (cheap on a CPU, and a
// downscale is a blur of its own), then scaled up.
import type { WorkerEffect } from './protocol';
import type { Segmenter } from './segmenter';

type Context = OffscreenCanvasRenderingContext2D;
type Frame = VideoFrame | ImageBitmap;

// Light: a quarter of the size and a 2 px blur there (about 8 px on the frame); strong: an
// eighth and 3 px (about 24 px).
const BLUR = { light: { scale: 4, radius: 2 }, strong: { scale: 8, radius: 3 } } as const;

function context(canvas: OffscreenCanvas): Context {
  const ctx = canvas.getContext('2d', { willReadFrequently: false });
  if (!ctx) throw new Error('no 2D canvas in this worker');
  return ctx;
}

export class Compositor {
  readonly output = new OffscreenCanvas(1, 1);
  private readonly out = context(this.output);
  private readonly small: OffscreenCanvas;
  private readonly smallContext: OffscreenCanvasRenderingContext2D;
  private readonly mask: OffscreenCanvas;
  private readonly maskContext: Context;
  private readonly maskPixels: ImageData;
  /** A camera frame (YUV) drawn once as RGB: drawn three times as it is, it was converted three times. */
  private readonly rgb = new OffscreenCanvas(1, 1);
  private readonly rgbContext = context(this.rgb);
  private readonly background = new OffscreenCanvas(1, 1);
  private readonly backgroundContext = context(this.background);
  private effect: WorkerEffect = { kind: 'blur', strength: 'light' };
  private imageDrawnAt = '';
  /** Milliseconds the model took on the last frame. */
  lastSegmentMs = 0;

  constructor(private readonly segmenter: Segmenter) {
    this.small = new OffscreenCanvas(segmenter.width, segmenter.height);
    const small = this.small.getContext('2d', { willReadFrequently: true });
    if (!small) throw new Error('no 2D canvas in this worker');
    this.smallContext = small;
    this.mask = new OffscreenCanvas(segmenter.width, segmenter.height);
    this.maskContext = context(this.mask);
    this.maskPixels = new ImageData(segmenter.width, segmenter.height);
    this.maskPixels.data.fill(255);
  }

  /** The worker owns the effect's picture (and closes it). */
  setEffect(effect: WorkerEffect) {
    this.effect = effect;
    this.imageDrawnAt = '';
  }

  /**
   * Draws `frame` (width × height) with the effect into `output`. `segment` false reuses the
   * previous frame's mask (the worker segments every other frame: at 30 fps the mask is then at
   * most 33 ms old, and the model's cost is halved).
   */
  render(input: Frame, width: number, height: number, segment = true): OffscreenCanvas {
    if (this.output.width !== width || this.output.height !== height) {
      this.output.width = width;
      this.output.height = height;
    }
    let frame: Frame | OffscreenCanvas = input;
    if (typeof VideoFrame !== 'undefined' && input instanceof VideoFrame) {
      if (this.rgb.width !== width || this.rgb.height !== height) {
        this.rgb.width = width;
        this.rgb.height = height;
      }
      this.rgbContext.globalCompositeOperation = 'copy';
      this.rgbContext.drawImage(input, 0, 0, width, height);
      frame = this.rgb;
    }
    this.lastSegmentMs = 0;
    if (segment) {
      const started = performance.now();
      const { width: sw, height: sh } = this.segmenter;
      this.smallContext.drawImage(frame, 0, 0, sw, sh);
      this.segmenter.segment(this.smallContext.getImageData(0, 0, sw, sh).data, this.maskPixels.data);
      this.maskContext.putImageData(this.maskPixels, 0, 0);
      this.lastSegmentMs = performance.now() - started;
    }

    const out = this.out;
    // The person: the mask scaled up (smoothly: soft edges), then the frame kept where it is opaque.
    out.globalCompositeOperation = 'copy';
    out.drawImage(this.mask, 0, 0, width, height);
    out.globalCompositeOperation = 'source-in';
    out.drawImage(frame, 0, 0, width, height);
    // The background behind it.
    out.globalCompositeOperation = 'destination-over';
    out.drawImage(this.backgroundFor(frame, width, height), 0, 0, width, height);
    out.globalCompositeOperation = 'source-over';
    return this.output;
  }

  private backgroundFor(frame: Frame | OffscreenCanvas, width: number, height: number): OffscreenCanvas {
    const canvas = this.background;
    const ctx = this.backgroundContext;
    if (this.effect.kind === 'blur') {
      const { scale, radius } = BLUR[this.effect.strength];
      const w = Math.max(1, Math.round(width / scale));
      const h = Math.max(1, Math.round(height / scale));
      if (canvas.width !== w || canvas.height !== h) {
        canvas.width = w;
        canvas.height = h;
      }
      // Drawn slightly larger than the canvas, so that the blur does not darken the edges.
      ctx.filter = `blur(${radius}px)`;
      ctx.drawImage(frame, -radius * 2, -radius * 2, w + radius * 4, h + radius * 4);
      ctx.filter = 'none';
      return canvas;
    }
    // A picture: scaled to cover the frame once per size, then drawn as it is.
    const key = `${width}x${height}`;
    if (this.imageDrawnAt !== key) {
      canvas.width = width;
      canvas.height = height;
      const { bitmap } = this.effect;
      const scale = Math.max(width / bitmap.width, height / bitmap.height);
      const w = bitmap.width * scale;
      const h = bitmap.height * scale;
      ctx.drawImage(bitmap, (width - w) / 2, (height - h) / 2, w, h);
      this.imageDrawnAt = key;
    }
    return canvas;
  }
}
