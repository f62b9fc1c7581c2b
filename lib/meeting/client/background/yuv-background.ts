// The background effect on a frame's YUV planes, given the person's mask: a blur of the frame
// itself, or a picture already at the frame's size. Holds every buffer and table it needs, made
// once per size, so that a frame allocates nothing. Pure (typed arrays only): the worker's
// yuv-compositor.ts feeds it frames, the unit test feeds it planes made in Node.
import type { BlurStrength } from './choice';
import {
  backdrop,
  blendPlanes,
  blockBounds,
  boxBlur,
  downscale,
  findRuns,
  maskRuns,
  resample,
  widenRows,
  type Backdrop,
  type MaskRuns,
  type Resample,
} from './yuv-blend';
import { packedI420, rgbaToYuv, type PlaneAt, type YuvLayout } from './yuv-planes';

/**
 * Light: the luma made a quarter of the size and box-blurred twice with radius 2 (≈ a Gaussian
 * of 2 px there, 8 px on the frame); strong: an eighth, radius 3 (≈ 24 px). The chroma planes
 * (half the size already) are made as small again, and blurred with half the radius.
 */
export const YUV_BLUR = { light: { scale: 4, radius: 2 }, strong: { scale: 8, radius: 3 } } as const;

/** The blur of one plane: its small copy, scratch, and the small rows widened to the plane's width. */
class PlaneBlur {
  private readonly small: Uint8Array;
  private readonly scratch: Uint8Array;
  private readonly columns: Int32Array;
  private readonly rows: Int32Array;
  private readonly widen: Resample;
  private readonly backdrop: Backdrop;

  constructor(
    readonly width: number,
    readonly height: number,
    readonly scale: number,
    readonly radius: number,
  ) {
    const sw = Math.max(2, Math.round(width / scale));
    const sh = Math.max(2, Math.round(height / scale));
    this.small = new Uint8Array(sw * sh);
    this.scratch = new Uint8Array(sw * sh);
    this.columns = blockBounds(width, sw);
    this.rows = blockBounds(height, sh);
    this.widen = resample(sw, width);
    this.backdrop = backdrop(new Uint8Array(sh * width), resample(sh, height));
  }

  of(frame: Uint8Array, plane: PlaneAt): Backdrop {
    const sw = this.columns.length - 1;
    const sh = this.rows.length - 1;
    downscale(frame, plane, this.columns, this.rows, this.small);
    boxBlur(this.small, sw, sh, this.radius, this.scratch);
    boxBlur(this.small, sw, sh, this.radius, this.scratch);
    widenRows(this.small, sw, sh, this.widen, this.backdrop.pixels);
    return this.backdrop;
  }
}

/** A picture's planes at one frame size. */
interface Picture {
  width: number;
  height: number;
  fullRange: boolean;
  planes: Backdrop[];
}

export class YuvBackground {
  /** The person's mask, mw × mh, 0–255: the model writes it, then calls maskChanged(). */
  readonly mask: Uint8Array;
  private readonly runs: MaskRuns;
  private readonly scales = new Map<string, { columns: Resample; rows: Resample }>();
  private blurs: PlaneBlur[] = [];
  private strength: BlurStrength | null = 'light';
  private picture: Picture | null = null;
  private words: Int32Array = new Int32Array(0);

  /** Starts as all person (nothing changes) until a mask comes. */
  constructor(
    private readonly mw: number,
    private readonly mh: number,
  ) {
    this.mask = new Uint8Array(mw * mh).fill(255);
    this.runs = maskRuns(mw, mh);
    this.maskChanged();
  }

  maskChanged() {
    findRuns(this.mask, this.mw, this.mh, this.runs);
  }

  blur(strength: BlurStrength) {
    this.strength = strength;
    this.picture = null;
  }

  /** A picture from now on; until usePicture gives one, frames are left as they are. */
  wantPicture() {
    this.strength = null;
    this.picture = null;
  }

  /** A picture (RGBA, already scaled to the frame's size) behind the person from now on. */
  usePicture(rgba: Uint8ClampedArray | Uint8Array, width: number, height: number, fullRange = false) {
    const layout = packedI420(width, height);
    const yuv = new Uint8Array(layout.v.offset + layout.chromaWidth * layout.chromaHeight);
    rgbaToYuv(rgba, yuv, layout, fullRange);
    // Each plane in a buffer of its own, so that each starts on a 4-byte boundary.
    const plane = (at: PlaneAt, w: number, h: number) => backdrop(yuv.slice(at.offset, at.offset + w * h), null);
    const { chromaWidth: cw, chromaHeight: ch } = layout;
    this.picture = { width, height, fullRange, planes: [plane(layout.y, width, height), plane(layout.u, cw, ch), plane(layout.v, cw, ch)] };
    this.strength = null;
  }

  /** Whether a picture is wanted at this size and not there yet (the caller draws it and calls usePicture). */
  needsPicture(width: number, height: number, fullRange = false): boolean {
    return this.strength === null && !this.pictureFits(width, height, fullRange);
  }

  private pictureFits(width: number, height: number, fullRange = this.picture?.fullRange): boolean {
    return this.picture?.width === width && this.picture.height === height && this.picture.fullRange === fullRange;
  }

  /** The effect on the frame in `buffer` (laid out as `layout`), in place. */
  apply(buffer: Uint8Array, layout: YuvLayout) {
    const { width, height, chromaWidth, chromaHeight } = layout;
    const backdrops = this.strength ? this.blurred(buffer, layout, this.strength) : this.pictureFits(width, height) ? this.picture!.planes : null;
    if (!backdrops) return;
    if (this.words.buffer !== buffer.buffer || this.words.byteOffset !== buffer.byteOffset || this.words.length !== buffer.length >> 2) {
      if (buffer.byteOffset & 3) throw new Error('apply: the frame buffer must start on a 4-byte boundary');
      this.words = new Int32Array(buffer.buffer, buffer.byteOffset, buffer.length >> 2);
    }
    const luma = this.scale(width, height);
    blendPlanes(buffer, this.words, [{ plane: layout.y, backdrop: backdrops[0]! }], width, height, this.mask, this.mw, this.runs, luma.columns, luma.rows);
    const chroma = this.scale(chromaWidth, chromaHeight);
    const targets = [
      { plane: layout.u, backdrop: backdrops[1]! },
      { plane: layout.v, backdrop: backdrops[2]! },
    ];
    blendPlanes(buffer, this.words, targets, chromaWidth, chromaHeight, this.mask, this.mw, this.runs, chroma.columns, chroma.rows);
  }

  /** Where the mask's samples fall on a plane of this size. */
  private scale(width: number, height: number) {
    const key = `${width}x${height}`;
    let scale = this.scales.get(key);
    if (!scale) {
      scale = { columns: resample(this.mw, width), rows: resample(this.mh, height) };
      this.scales.set(key, scale);
    }
    return scale;
  }

  private blurred(buffer: Uint8Array, layout: YuvLayout, strength: BlurStrength): Backdrop[] {
    const { scale, radius } = YUV_BLUR[strength];
    const { width, height, chromaWidth: cw, chromaHeight: ch } = layout;
    const wanted: [number, number, number, number][] = [
      [width, height, scale, radius],
      [cw, ch, scale, Math.ceil(radius / 2)],
      [cw, ch, scale, Math.ceil(radius / 2)],
    ];
    const fits = (blur: PlaneBlur | undefined, [w, h, s, r]: [number, number, number, number]) =>
      blur?.width === w && blur.height === h && blur.scale === s && blur.radius === r;
    if (!wanted.every((want, i) => fits(this.blurs[i], want))) this.blurs = wanted.map(([w, h, s, r]) => new PlaneBlur(w, h, s, r));
    return [this.blurs[0]!.of(buffer, layout.y), this.blurs[1]!.of(buffer, layout.u), this.blurs[2]!.of(buffer, layout.v)];
  }
}
