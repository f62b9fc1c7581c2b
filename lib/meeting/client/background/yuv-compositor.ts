// Draws one camera frame with its background blurred or replaced on the frame's own YUV planes
// (I420 or NV12), in the background worker: the frame is copied out once (VideoFrame.copyTo),
// the model's 256×144 RGB input is sampled from the planes, the effect is applied in place
// (yuv-background.ts), and the same buffer becomes the output frame in the same format, which
// the encoder takes as it is. No canvas and no RGB↔YUV conversion of the frame: on a CPU this
// is ten times cheaper than the 2D canvas (bench/RESULTS.md). Other formats answer null, and
// the worker draws those frames with the canvas compositor (compositor.ts).
import type { WorkerEffect } from './protocol';
import type { Segmenter } from './segmenter';
import { YuvBackground } from './yuv-background';
import { fillModelInput, isYuvFormat, yuvLayout } from './yuv-planes';

export class YuvCompositor {
  private buffer = new Uint8Array(0);
  private readonly background: YuvBackground;
  private effect: WorkerEffect = { kind: 'blur', strength: 'light' };
  /** Milliseconds the model took on the last frame (0 when the mask was reused). */
  lastSegmentMs = 0;

  constructor(private readonly segmenter: Segmenter) {
    this.background = new YuvBackground(segmenter.width, segmenter.height);
  }

  /** The worker owns the effect's picture (and closes it). */
  setEffect(effect: WorkerEffect) {
    this.effect = effect;
    if (effect.kind === 'blur') this.background.blur(effect.strength);
    else this.background.wantPicture();
  }

  /**
   * The frame with the effect, as a new frame in the same format, or null when the frame's
   * format is not one this compositor reads (the caller draws it otherwise). `segment` false
   * reuses the previous mask. The caller closes `frame`.
   */
  async render(frame: VideoFrame, segment = true): Promise<VideoFrame | null> {
    const { format } = frame;
    if (!isYuvFormat(format) || !frame.visibleRect) return null;
    const { width, height } = frame.visibleRect;
    const size = frame.allocationSize();
    if (this.buffer.byteLength !== size) this.buffer = new Uint8Array(size);
    const planes = await frame.copyTo(this.buffer);
    const layout = yuvLayout(format, width, height, planes);
    const fullRange = frame.colorSpace?.fullRange === true;

    this.lastSegmentMs = 0;
    if (segment) {
      const started = performance.now();
      const { width: mw, height: mh } = this.segmenter;
      this.segmenter.segmentWith((input) => fillModelInput(this.buffer, layout, input, mw, mh, fullRange), this.background.mask);
      this.background.maskChanged();
      this.lastSegmentMs = performance.now() - started;
    }
    if (this.effect.kind === 'image' && this.background.needsPicture(width, height, fullRange)) this.drawPicture(this.effect.bitmap, width, height, fullRange);
    this.background.apply(this.buffer, layout);
    return new VideoFrame(this.buffer, {
      format,
      codedWidth: width,
      codedHeight: height,
      displayWidth: frame.displayWidth,
      displayHeight: frame.displayHeight,
      timestamp: frame.timestamp,
      duration: frame.duration ?? undefined,
      layout: planes,
      colorSpace: frame.colorSpace?.toJSON(),
    });
  }

  /** The picture scaled to cover the frame (as the canvas compositor draws it), once per picture and size. */
  private drawPicture(bitmap: ImageBitmap, width: number, height: number, fullRange: boolean) {
    const ctx = new OffscreenCanvas(width, height).getContext('2d');
    if (!ctx) throw new Error('no 2D canvas in this worker');
    const scale = Math.max(width / bitmap.width, height / bitmap.height);
    const w = bitmap.width * scale;
    const h = bitmap.height * scale;
    ctx.drawImage(bitmap, (width - w) / 2, (height - h) / 2, w, h);
    this.background.usePicture(ctx.getImageData(0, 0, width, height).data, width, height, fullRange);
  }
}
