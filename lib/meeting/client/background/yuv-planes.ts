// Where a camera frame's YUV planes are in a buffer (I420 or NV12, as VideoFrame.copyTo lays
// them out), and the two colour conversions the background effect needs: the model's small RGB
// input sampled from the planes, and a picture (RGBA) turned into planes once. Pure functions on
// typed arrays: no DOM, so the unit test runs them in Node on real pixels.

export type YuvFormat = 'I420' | 'NV12';

/** One plane: its first byte, bytes per row, bytes between two samples of a row (2 for NV12's interleaved U and V). */
export interface PlaneAt {
  offset: number;
  stride: number;
  step: number;
}

export interface YuvLayout {
  format: YuvFormat;
  width: number;
  height: number;
  chromaWidth: number;
  chromaHeight: number;
  y: PlaneAt;
  u: PlaneAt;
  v: PlaneAt;
}

export const isYuvFormat = (format: string | null): format is YuvFormat => format === 'I420' || format === 'NV12';

/** The layout of a `width` × `height` frame from the plane offsets and strides copyTo answered. */
export function yuvLayout(format: YuvFormat, width: number, height: number, planes: readonly { offset: number; stride: number }[]): YuvLayout {
  const chroma = { chromaWidth: (width + 1) >> 1, chromaHeight: (height + 1) >> 1 };
  const y = { offset: planes[0]!.offset, stride: planes[0]!.stride, step: 1 };
  if (format === 'NV12') {
    const { offset, stride } = planes[1]!;
    return { format, width, height, ...chroma, y, u: { offset, stride, step: 2 }, v: { offset: offset + 1, stride, step: 2 } };
  }
  return { format, width, height, ...chroma, y, u: { ...planes[1]!, step: 1 }, v: { ...planes[2]!, step: 1 } };
}

/** A tightly packed I420 layout (the picture's planes, and the tests' frames). */
export function packedI420(width: number, height: number): YuvLayout {
  const cw = (width + 1) >> 1;
  const ch = (height + 1) >> 1;
  return yuvLayout('I420', width, height, [
    { offset: 0, stride: width },
    { offset: width * height, stride: cw },
    { offset: width * height + cw * ch, stride: cw },
  ]);
}

export const i420Size = (width: number, height: number) => width * height + 2 * ((width + 1) >> 1) * ((height + 1) >> 1);

// BT.601, which cameras and Chromium's capture use (a frame's colour space mostly says nothing).
// Studio range: Y 16–235, U and V 16–240; full range (JPEG): 0–255.
interface Range {
  y0: number;
  yScale: number;
  cScale: number;
}
const rangeOf = (fullRange: boolean): Range => (fullRange ? { y0: 0, yScale: 1, cScale: 1 } : { y0: 16, yScale: 255 / 219, cScale: 255 / 224 });

/**
 * The model's input: `mw` × `mh` RGB in 0..1 (`input`, length mw·mh·3), each pixel the mean of
 * the 2×2 luma samples at its centre and the chroma sample there.
 */
export function fillModelInput(buffer: Uint8Array, layout: YuvLayout, input: Float32Array, mw: number, mh: number, fullRange = false) {
  const { width, height, y: Y, u: U, v: V } = layout;
  const { y0, yScale, cScale } = rangeOf(fullRange);
  const ky = yScale / 255;
  const kr = (1.402 * cScale) / 255;
  const kgu = (0.344136 * cScale) / 255;
  const kgv = (0.714136 * cScale) / 255;
  const kb = (1.772 * cScale) / 255;
  let i = 0;
  for (let my = 0; my < mh; my += 1) {
    const sy = Math.min(height - 2, Math.max(0, Math.floor(((my + 0.5) * height) / mh - 0.5)));
    const row = Y.offset + sy * Y.stride;
    const crow = (sy >> 1) * U.stride;
    for (let mx = 0; mx < mw; mx += 1) {
      const sx = Math.min(width - 2, Math.max(0, Math.floor(((mx + 0.5) * width) / mw - 0.5)));
      const at = row + sx;
      const luma = (buffer[at]! + buffer[at + 1]! + buffer[at + Y.stride]! + buffer[at + Y.stride + 1]!) / 4 - y0;
      const c = crow + (sx >> 1) * U.step;
      const cb = buffer[U.offset + c]! - 128;
      const cr = buffer[V.offset + c]! - 128;
      const l = luma * ky;
      input[i] = Math.min(1, Math.max(0, l + kr * cr));
      input[i + 1] = Math.min(1, Math.max(0, l - kgu * cb - kgv * cr));
      input[i + 2] = Math.min(1, Math.max(0, l + kb * cb));
      i += 3;
    }
  }
}

const clampByte = (value: number) => Math.min(255, Math.max(0, Math.round(value)));

/** RGBA pixels (`width` × `height`, e.g. ImageData) into the planes of `layout` in `out`; chroma is the mean of each 2×2. */
export function rgbaToYuv(rgba: Uint8ClampedArray | Uint8Array, out: Uint8Array, layout: YuvLayout, fullRange = false) {
  const { width, height, chromaWidth, chromaHeight, y: Y, u: U, v: V } = layout;
  const { y0, yScale, cScale } = rangeOf(fullRange);
  const ys = 1 / yScale;
  const cs = 1 / cScale;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0, p = y * width * 4; x < width; x += 1, p += 4) {
      out[Y.offset + y * Y.stride + x] = clampByte(y0 + (0.299 * rgba[p]! + 0.587 * rgba[p + 1]! + 0.114 * rgba[p + 2]!) * ys);
    }
  }
  for (let cy = 0; cy < chromaHeight; cy += 1) {
    for (let cx = 0; cx < chromaWidth; cx += 1) {
      let r = 0;
      let g = 0;
      let b = 0;
      let n = 0;
      for (let y = cy * 2; y < Math.min(height, cy * 2 + 2); y += 1) {
        for (let x = cx * 2; x < Math.min(width, cx * 2 + 2); x += 1) {
          const p = (y * width + x) * 4;
          r += rgba[p]!;
          g += rgba[p + 1]!;
          b += rgba[p + 2]!;
          n += 1;
        }
      }
      r /= n;
      g /= n;
      b /= n;
      out[U.offset + cy * U.stride + cx * U.step] = clampByte(128 + (-0.168736 * r - 0.331264 * g + 0.5 * b) * cs);
      out[V.offset + cy * V.stride + cx * V.step] = clampByte(128 + (0.5 * r - 0.418688 * g - 0.081312 * b) * cs);
    }
  }
}
